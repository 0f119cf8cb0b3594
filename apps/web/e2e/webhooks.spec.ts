// The Webhooks screen (issue 20 items 3 and 4, decision 0038), against a real receiver on
// 127.0.0.1: the admin, in English at 1280 wide, adds an endpoint (the secret shown once), an
// order at the demo terminal arrives signed so that `standardwebhooks` verifies it, and the
// delivery log shows it delivered; ACME's company admin, in Chinese at 390 wide, gets its role's
// ten events, rotates a secret and disables the endpoint, each behind a confirmation. Axe clean,
// no console error.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiSession, expectStatus, terminalCall } from './api';
import { expectPath, sessionPerTest, signIn, type Session } from './browser';
import { seriousViolations, waitForScreen } from './pages';
import { texts } from './texts';

interface Received {
  headers: Record<string, string>;
  body: string;
}

let session: Session;
let page: Page;
let server: http.Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  // No endpoint of this journey outlives it (later journeys place orders too).
  for (const user of ['admin', 'acme.admin']) {
    const call = await apiSession(user);
    const list = await call<{ data: { id: number; url: string }[] }>('GET', '/webhooks');
    for (const endpoint of list.body.data.filter((e) => e.url === receiverUrl)) {
      await call('DELETE', `/webhooks/${endpoint.id}`);
    }
  }
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

sessionPerTest((opened) => ({ session, page } = opened));

describe('webhooks', () => {
  it('the admin, in English at 1280 wide, adds an endpoint and receives a signed order', async () => {
    const t = texts('en');
    await signIn(page, 'admin');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: t('nav.webhooks') })
      .click();
    await expectPath(page, '/webhooks');
    await waitForScreen(page, t('nav.webhooks'));
    expect(await seriousViolations(page), 'webhooks en desktop').toEqual([]);

    await page.getByRole('button', { name: t('webhooks.add') }).click();
    const form = page.getByRole('dialog', { name: t('webhooks.create_title') });
    await form.getByLabel(t('webhooks.url')).fill(receiverUrl);
    await form.getByRole('checkbox', { name: /order\.created/ }).click();
    expect(await seriousViolations(page), 'add endpoint en desktop').toEqual([]);
    await form.getByRole('button', { name: t('actions.create') }).click();

    const shown = page.getByRole('dialog', { name: t('webhooks.secret_created_title') });
    const secret = await shown.getByLabel(t('webhooks.secret')).inputValue();
    expect(secret).toMatch(/^whsec_/);
    expect(await seriousViolations(page), 'secret en desktop').toEqual([]);
    await shown.getByRole('button', { name: t('webhooks.secret_saved') }).click();
    await page.getByText(receiverUrl).waitFor();

    // An order at the demo terminal (SHOP) for ACME's E0001.
    const acme = await apiSession('acme.admin');
    const staff = expectStatus(
      await acme<{ data: { id: number; employee_id: string }[] }>(
        'GET',
        '/employees?search=E0001&page_size=10',
      ),
      200,
    ).data.find((e) => e.employee_id === 'E0001')!;
    expectStatus(
      await acme('POST', '/tokens/topup-token/employees', {
        items: [{ employee_id: staff.id, amount: 9 }],
      }),
      200,
    );
    const placed = expectStatus(
      await terminalCall<{ data: { id: number } }>('/orders', {
        company_code: 'ACME',
        employee_id: 'E0001',
        order_type: 'dine_in',
        items: [{ name: 'Tea', quantity: 1, unit_tokens: 9 }],
      }),
      201,
    ).data;
    // Vitest's waitFor polls the receiver until the order's delivery has arrived (10 s at most).
    const delivered = await vi.waitFor(
      () => {
        const found = received.find((r) => JSON.parse(r.body).data.order_id === placed.id);
        if (!found) throw new Error('the order.created webhook has not arrived');
        return found;
      },
      { timeout: 10_000, interval: 100 },
    );
    const event = new Verifier(secret).verify(delivered.body, delivered.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event.type).toBe('order.created');
    expect(event.data).toMatchObject({ company_code: 'ACME', employee_id: 'E0001', subtotal: 9 });

    // The delivery log: succeeded at the first attempt.
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.getByRole('button', { name: t('table.row_actions', { name: receiverUrl }) }).click();
    await page.getByRole('menuitem', { name: t('webhooks.deliveries') }).click();
    const log = page.getByRole('dialog', { name: t('webhooks.deliveries_title') });
    const first = log.getByRole('listitem').first();
    await first.getByText(t('webhooks.delivery_statuses.succeeded')).waitFor();
    await expect(first.innerText()).resolves.toContain(delivered.headers['webhook-id']);
    expect(await seriousViolations(page), 'deliveries en desktop').toEqual([]);
  });

  it('ACME’s company admin, in Chinese at 390 wide, rotates a secret and disables the endpoint', async () => {
    const t = texts('zh');
    await signIn(page, 'acme.admin');
    await session.context.addCookies([{ name: 'lang', value: 'zh', url: session.baseURL }]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await waitForScreen(page, t('nav.dashboard'));
    await page
      .getByRole('button', { name: t('sidebar.toggle') })
      .first()
      .click();
    await page
      .getByRole('dialog', { name: t('sidebar.title') })
      .getByRole('link', { name: t('nav.webhooks') })
      .click();
    await expectPath(page, '/webhooks');
    await waitForScreen(page, t('nav.webhooks'));
    expect(await seriousViolations(page), 'webhooks zh mobile').toEqual([]);

    await page.getByRole('button', { name: t('webhooks.add') }).click();
    const form = page.getByRole('dialog', { name: t('webhooks.create_title') });
    const events = form.getByRole('group', { name: t('webhooks.events') }).getByRole('checkbox');
    await expect(events.count()).resolves.toBe(10);
    await form.getByLabel(t('webhooks.url')).fill(receiverUrl);
    await form.getByRole('checkbox', { name: /tokens\.distributed/ }).click();
    expect(await seriousViolations(page), 'add endpoint zh mobile').toEqual([]);
    await form.getByRole('button', { name: t('actions.create') }).click();
    const shown = page.getByRole('dialog', { name: t('webhooks.secret_created_title') });
    const first = await shown.getByLabel(t('webhooks.secret')).inputValue();
    await shown.getByRole('button', { name: t('webhooks.secret_saved') }).click();

    const actions = page.getByRole('button', {
      name: t('table.row_actions', { name: receiverUrl }),
    });
    await actions.first().click();
    await page.getByRole('menuitem', { name: t('webhooks.rotate') }).click();
    const confirm = page.getByRole('alertdialog', { name: t('webhooks.rotate_title') });
    await confirm.getByRole('button', { name: t('webhooks.rotate') }).click();
    const rotated = page.getByRole('dialog', { name: t('webhooks.secret_rotated_title') });
    const second = await rotated.getByLabel(t('webhooks.secret')).inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(await seriousViolations(page), 'rotated secret zh mobile').toEqual([]);
    await rotated.getByRole('button', { name: t('webhooks.secret_saved') }).click();

    await actions.first().click();
    await page.getByRole('menuitem', { name: t('webhooks.disable') }).click();
    await page
      .getByRole('alertdialog', { name: t('webhooks.disable_title') })
      .getByRole('button', { name: t('webhooks.disable') })
      .click();
    await page.getByText(t('webhooks.disabled_toast')).waitFor();
    await page.getByText(t('webhooks.statuses.disabled')).first().waitFor();
    expect(await seriousViolations(page), 'disabled zh mobile').toEqual([]);
  });
});
