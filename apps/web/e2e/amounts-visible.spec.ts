import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { sessionPerTest, signIn, type Session } from './browser';
import { waitForScreen } from './pages';
import { texts, type Language } from './texts';

/**
 * Every amount on screen at 1280 px (issue 41 item 2): on Companies, Employees, Order History,
 * the dashboard's summary and the summary report, each money column's header and cells lie
 * inside the window and inside their table's box as first drawn (not scrolled), and where its
 * text is drawn (both ends and the middle) the element on top is the cell itself, not the
 * pinned actions column over it; with a company whose name is 130 characters
 * long, and an employee whose name is 70, both written out whole.
 */

const suffix = randomUUID().slice(0, 6).toUpperCase();
const companyCode = `WIDE${suffix}`;
const companyName = `Amalgamated Northern Provincial Staff Canteen and Meal Benefit Cooperative Holdings of the Greater Metropolitan Region East ${suffix}`;
const employeeName = `Maximiliana Alexandrina Konstantinopoulou-Vanderbilt-Featherstonehaugh`;
const adminUsername = `wide.admin.${suffix.toLowerCase()}`;
const adminPassword = 'Wide@2026pass';
let orderNo = '';

const LANGUAGES: Language[] = ['en', 'zh'];
const VIEWPORT = { width: 1280, height: 800 };

beforeAll(async () => {
  expect(companyName).toHaveLength(130);
  expect(employeeName).toHaveLength(70);
  const admin = await apiSession('admin');
  const companyId = expectStatus(
    await admin<{ data: { id: number } }>('POST', '/companies', {
      code: companyCode,
      name: companyName,
      monthly_reset_day: 1,
      init_token: 1_234_567,
    }),
    201,
  ).data.id;
  expectStatus(
    await admin('POST', '/tokens/topup-token', { company_id: companyId, amount: 8_765_432 }),
    200,
  );
  expectStatus(
    await admin('POST', '/companies/admin', {
      company_id: companyId,
      username: adminUsername,
      email: `${adminUsername}@e2e.test`,
      password: adminPassword,
      confirm_password: adminPassword,
      status: 'active',
    }),
    201,
  );
  const companyAdmin = await apiSession(adminUsername, adminPassword);
  const employee = expectStatus(
    await companyAdmin<{ data: { id: number } }>('POST', '/employees', {
      employee_id: 'W0001',
      name: employeeName,
      status: 'active',
    }),
    201,
  ).data;
  expectStatus(
    await companyAdmin('POST', '/tokens/topup-token/employees', {
      // Below the demo's approval threshold (10,000): handed out at once.
      items: [{ employee_id: employee.id, amount: 9_876 }],
    }),
    200,
  );
  const placed = expectStatus(
    await terminalCall<{ data: { id: number; order_no: string } }>('/orders', {
      company_code: companyCode,
      employee_id: 'W0001',
      order_type: 'dine_in',
      items: [{ name: 'Banquet for the whole floor', quantity: 1, unit_tokens: 8_765 }],
    }),
    201,
  ).data;
  orderNo = placed.order_no;
  expectStatus(
    await terminalCall(`/orders/${placed.id}/refund`, { reason: 'item_removed', amount: 1_234 }),
    200,
  );
});

let session: Session;
let page: Page;
sessionPerTest((opened) => ({ session, page } = opened));

async function open(lng: Language, url: string, heading: string) {
  await session.context.addCookies([{ name: 'lang', value: lng, url: session.baseURL }]);
  await page.setViewportSize(VIEWPORT);
  await page.goto(url);
  await waitForScreen(page, heading);
}

/**
 * What hides an amount of the table named `tableName`: for the header and each body row's cell
 * of every column whose header starts with one of `headers`, why a person could not read it
 * (outside the window or the table's box, or covered by another element); empty when every one
 * shows. Also names a header that is not found, and a table scrolled sideways.
 */
function hiddenAmounts(tableName: string, headers: string[]): Promise<string[]> {
  return page.evaluate(
    ({ tableName, headers }) => {
      const problems: string[] = [];
      const table = [...document.querySelectorAll('table')].find(
        (element) => element.getAttribute('aria-label') === tableName,
      );
      if (!table) return [`no table "${tableName}"`];
      const box = table.closest('[data-slot="table-container"]') ?? table.parentElement!;
      if (box.scrollLeft !== 0) problems.push(`the table is scrolled by ${box.scrollLeft} px`);
      const title = (cell: Element) => {
        const copy = cell.cloneNode(true) as Element;
        copy.querySelectorAll('.sr-only').forEach((hint) => hint.remove());
        return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
      };
      const headerCells = [...table.querySelectorAll('thead tr:last-child th')];
      /** Column index of each header cell, counting spans. */
      const starts: number[] = [];
      headerCells.reduce((column, cell) => {
        starts.push(column);
        return column + ((cell as HTMLTableCellElement).colSpan || 1);
      }, 0);
      const rows = [...table.querySelectorAll('tbody tr')];
      if (rows.length === 0) problems.push('no rows');
      const cellAt = (row: Element, index: number) => {
        let column = 0;
        for (const cell of row.children) {
          if (column === index) return cell;
          column += (cell as HTMLTableCellElement).colSpan || 1;
        }
        return undefined;
      };
      const check = (cell: Element, where: string) => {
        // Brought into view vertically only: a sideways scroll would hide what is being tested.
        window.scrollTo({ top: cell.getBoundingClientRect().top + window.scrollY - 200 });
        const rect = cell.getBoundingClientRect();
        const frame = box.getBoundingClientRect();
        if (rect.left < 0 || rect.right > window.innerWidth) {
          problems.push(
            `${where}: ${Math.round(rect.left)}–${Math.round(rect.right)} px, the window 0–${window.innerWidth}`,
          );
          return;
        }
        if (rect.left < frame.left - 1 || rect.right > frame.right + 1) {
          problems.push(
            `${where}: beyond the table's box (${Math.round(rect.right)} > ${Math.round(frame.right)} px)`,
          );
          return;
        }
        // Where its text is drawn: the middle and both ends of it (of the cell if it has none).
        // (not a screen reader's hint, drawn clipped to one pixel somewhere).
        const parts: DOMRect[] = [];
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim() || node.parentElement?.closest('.sr-only')) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          parts.push(...range.getClientRects());
        }
        const drawn =
          parts.length === 0
            ? rect
            : (() => {
                const left = Math.min(...parts.map((part) => part.left));
                const top = Math.min(...parts.map((part) => part.top));
                const right = Math.max(...parts.map((part) => part.right));
                const bottom = Math.max(...parts.map((part) => part.bottom));
                return new DOMRect(left, top, right - left, bottom - top);
              })();
        const y = drawn.top + drawn.height / 2;
        for (const x of [drawn.left + 1, drawn.left + drawn.width / 2, drawn.right - 1]) {
          const hit = document.elementFromPoint(x, y);
          if (!hit || !cell.contains(hit)) {
            problems.push(
              `${where}: covered at x ${Math.round(x)} by ${hit ? `${hit.tagName.toLowerCase()} "${(hit.textContent ?? '').slice(0, 30)}"` : 'nothing'}`,
            );
            return;
          }
        }
      };
      for (const header of headers) {
        const index = headerCells.findIndex((cell) => title(cell).startsWith(header));
        if (index < 0) {
          problems.push(`no column "${header}" among ${headerCells.map(title).join(' | ')}`);
          continue;
        }
        check(headerCells[index]!, `"${header}" header`);
        rows.forEach((row, rowIndex) => {
          const cell = cellAt(row, starts[index]!);
          if (cell) check(cell, `"${header}" row ${rowIndex + 1}`);
        });
      }
      window.scrollTo({ top: 0 });
      return problems;
    },
    { tableName, headers },
  );
}

/** The element holding `text` shows all of it: nothing cut off at its edge. */
const shownWhole = (text: string) =>
  page.evaluate((text) => {
    const cell = [...document.querySelectorAll('td, th, li')].find(
      (element) => element.textContent?.includes(text) && element.children.length < 20,
    );
    if (!cell) return `"${text.slice(0, 20)}…" is not on the page`;
    const cut = [cell, ...cell.querySelectorAll('*')].find(
      (element) => element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0,
    );
    return cut ? `cut off in ${cut.tagName.toLowerCase()}` : '';
  }, text);

describe.each(LANGUAGES)('every amount at 1280 px, in %s', (lng) => {
  const t = texts(lng);

  it('on Companies, Order History, the dashboard summary and the summary report (admin)', async () => {
    await signIn(page, 'admin');

    await open(lng, `/companies?search=${companyCode}`, t('nav.companies'));
    expect(
      await hiddenAmounts(t('companies.table_label'), [
        t('companies.init_token'),
        t('companies.init_token_next_month'),
        t('companies.current_balance'),
      ]),
    ).toEqual([]);
    expect(await shownWhole(companyName)).toBe('');

    await open(lng, `/order-history?order_no=${orderNo}`, t('nav.order_history'));
    expect(
      await hiddenAmounts(t('order_history.table_label'), [
        t('order_history.subtotal'),
        t('order_history.refunded'),
      ]),
    ).toEqual([]);
    expect(await shownWhole(companyName)).toBe('');

    const totals = [
      'tokens_from_admin',
      'distributed_to_employees',
      'consumed_by_employees',
      'company_unused',
      'employee_unused',
    ];
    await open(lng, '/dashboard', t('nav.dashboard'));
    await page.getByRole('table', { name: t('dashboard.summary_title') }).waitFor();
    expect(
      await hiddenAmounts(
        t('dashboard.summary_title'),
        totals.map((key) => t(`dashboard.cards.${key}`)),
      ),
    ).toEqual([]);
    expect(await shownWhole(companyName)).toBe('');

    await open(lng, `/summary-report?search=${companyCode}`, t('nav.summary_report'));
    expect(
      await hiddenAmounts(
        t('summary_reports.table_label'),
        totals.map((key) => t(`summary_reports.${key}`)),
      ),
    ).toEqual([]);
    expect(await shownWhole(companyName)).toBe('');
  });

  it("on Employees (the long-named company's admin)", async () => {
    await signIn(page, adminUsername, adminPassword);
    await open(lng, '/employees', t('nav.employees'));
    expect(
      await hiddenAmounts(t('employees.table_label'), [
        t('employees.available_tokens'),
        t('employees.consumed_tokens'),
        t('employees.issued_tokens'),
        t('employees.token_month'),
      ]),
    ).toEqual([]);
    expect(await shownWhole(employeeName)).toBe('');
  });
});
