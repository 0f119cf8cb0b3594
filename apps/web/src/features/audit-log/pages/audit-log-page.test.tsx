import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTIONS, type AuditEntry, type Role } from '@app/contract';
import { browser } from '@/lib/browser';
import { i18n } from '@/locales/i18n';
import { answer, listOf, signedIn } from '@/test/api';
import { renderApp } from '@/test/render';
import { changedFields } from '../components/audit-diff';

const entry = (overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: 7,
  occurred_at: '2026-01-10T10:00:00.000Z',
  actor_user_id: 1,
  actor_username: 'admin',
  action: 'update',
  entity_type: 'company',
  entity_id: '12',
  entity_name: 'Acme Foods',
  before: {
    name: 'Acme',
    status: 'active',
    monthly_reset_day: 1,
    updated_at: '2026-01-09T08:00:00.000Z',
  },
  after: {
    name: 'Acme Foods',
    status: 'active',
    monthly_reset_day: 5,
    updated_at: '2026-01-10T10:00:00.000Z',
  },
  ip: '203.0.113.9',
  ...overrides,
});

async function openAuditLog(entries: AuditEntry[], path = '/audit-log', role: Role = 'admin') {
  const requests = answer('get', '/api/v1/audit-log', listOf(entries));
  const view = renderApp(path, { user: signedIn(role) });
  return { ...view, requests };
}

describe('changedFields', () => {
  it('keeps the fields an update changed, every field of a creation, and counts the rest', () => {
    expect(changedFields({ a: 1, b: [1], c: 'x' }, { a: 1, b: [2], d: true })).toEqual({
      changed: [
        { field: 'b', before: [1], after: [2] },
        { field: 'c', before: 'x', after: undefined },
        { field: 'd', before: undefined, after: true },
      ],
      unchanged: 1,
    });
    expect(changedFields(null, { a: 1 })).toEqual({
      changed: [{ field: 'a', before: undefined, after: 1 }],
      unchanged: 0,
    });
  });
});

describe('Audit Log', () => {
  it('lists who did what to which record, and opens a change as before and after', async () => {
    await openAuditLog([
      entry(),
      entry({ id: 8, actor_user_id: null, actor_username: null, action: 'sign_in_failed' }),
      entry({
        id: 9,
        action: 'distribute',
        before: { token_balance: 500 },
        after: { token_balance: 400, total: 100, people: 2 },
      }),
    ]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    const row = (await screen.findByRole('cell', { name: 'Updated' })).closest('tr')!;
    expect(within(row).getByText('admin')).toBeInTheDocument();
    expect(within(row).getByText('Company')).toBeInTheDocument();
    expect(within(row).getByText('Acme Foods (#12)')).toBeInTheDocument();
    // A distribution names nobody in its change: the company's current name, from the API.
    const distribution = screen.getByRole('cell', { name: 'Tokens distributed' }).closest('tr')!;
    expect(within(distribution).getByText('Acme Foods (#12)')).toBeInTheDocument();
    const system = screen.getByRole('cell', { name: 'Sign-in failed' }).closest('tr')!;
    expect(within(system).getByText('System')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'View Updated: Company #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Updated: Company #12' });
    const changes = within(dialog).getByRole('table', { name: 'Changed fields' });
    const name = within(changes).getByRole('rowheader', { name: 'name' }).closest('tr')!;
    expect(within(name).getByText('Acme')).toBeInTheDocument();
    expect(within(name).getByText('Acme Foods')).toBeInTheDocument();
    expect(within(changes).getByRole('rowheader', { name: 'monthly_reset_day' })).toBeVisible();
    // Instants read as the app's times, not as ISO strings.
    const updated = within(changes).getByRole('rowheader', { name: 'updated_at' }).closest('tr')!;
    expect(within(updated).queryByText('2026-01-10T10:00:00.000Z')).toBeNull();
    expect(within(updated).getAllByRole('cell')[1]).toHaveTextContent(/2026/);
    expect(within(changes).queryByRole('rowheader', { name: 'status' })).toBeNull();
    expect(within(dialog).getByText('1 unchanged field not shown.')).toBeInTheDocument();
    expect(within(dialog).getByText('203.0.113.9')).toBeInTheDocument();
  });

  it('sends the filters and the sort of a shared link, and says when nothing matches', async () => {
    const { requests } = await openAuditLog(
      [],
      '/audit-log?actor=ann&action=sign_in&entity_type=user&date_from=2026-01-01&date_to=2026-01-31&sort=action&order=desc',
    );
    expect(await screen.findByText('No audit entries match these filters.')).toBeInTheDocument();
    expect(requests[0]?.query).toEqual({
      page: '1',
      page_size: '10',
      actor: 'ann',
      action: 'sign_in',
      entity_type: 'user',
      date_from: '2026-01-01',
      date_to: '2026-01-31',
      sort: 'action',
      order: 'desc',
    });
  });

  it('filters by action from the toolbar', async () => {
    const { requests } = await openAuditLog([entry()]);
    await screen.findByRole('cell', { name: 'Updated' });
    // The toolbar's filter (the column header of the same name is a sort button in the table).
    const table = screen.getByRole('table', { name: 'Audit log' });
    const filter = screen
      .getAllByRole('button', { name: /Action/ })
      .find((button) => !table.contains(button))!;
    await userEvent.click(filter);
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Signed in' }));
    await waitFor(() => expect(requests.at(-1)?.query).toMatchObject({ action: 'sign_in' }));
  });

  it('exports the filtered list in its order as CSV, without paging', async () => {
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    await openAuditLog([entry()], '/audit-log?action=update&sort=occurred_at&page=2');
    await screen.findByRole('cell', { name: 'Updated' });
    const exports = answer(
      'get',
      '/api/v1/exports/audit-log',
      () =>
        new HttpResponse('id\n7\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="audit-log-2026-01-10.csv"',
          },
        }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(exports[0]?.query).toEqual({ action: 'update', sort: 'occurred_at', order: 'asc' });
    expect(saveFile.mock.calls[0]?.[1]).toBe('audit-log-2026-01-10.csv');
  });

  it('is in the sidebar of the admin, Group HR and company admins only', async () => {
    for (const [role, shown] of [
      ['super_hr', true],
      ['company_admin', true],
      ['merchant_admin', false],
    ] as const) {
      answer('get', '/api/v1/audit-log', listOf([]));
      answer('get', '/api/v1/users', listOf([]));
      // A screen each may open: the Audit Log itself, or the merchant admin's User Management.
      const view = renderApp(shown ? '/audit-log' : '/user', { user: signedIn(role) });
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      await waitFor(() =>
        expect(within(nav).queryAllByRole('link').length, role).toBeGreaterThan(0),
      );
      expect(within(nav).queryByRole('link', { name: 'Audit Log' }) !== null, role).toBe(shown);
      view.unmount();
    }
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    await openAuditLog([entry({ action: 'mfa_enable', entity_type: 'user', before: null })]);
    expect(await screen.findByRole('heading', { level: 1, name: '审计日志' })).toBeVisible();
    const row = (await screen.findByRole('cell', { name: '开启双重验证' })).closest('tr')!;
    expect(within(row).getByText('用户')).toBeInTheDocument();
    expect(within(row).getByText('Acme Foods (#12)')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: '查看 开启双重验证：用户 #12' }));
    const dialog = await screen.findByRole('dialog', { name: '开启双重验证：用户 #12' });
    expect(within(dialog).getByRole('columnheader', { name: '变更前' })).toBeInTheDocument();
    expect(within(dialog).getByRole('columnheader', { name: '变更后' })).toBeInTheDocument();
  });
});

describe('the spending rules actions (DESIGN 7)', () => {
  it('have a label in both languages, like every action the server writes', () => {
    for (const lng of ['en', 'zh']) {
      for (const action of AUDIT_ACTIONS) {
        expect(
          i18n.exists(`audit_log.actions.${action}`, { lng }),
          `${lng}: audit_log.actions.${action}`,
        ).toBe(true);
      }
    }
  });

  it('show in words in the list, in English and in Chinese', async () => {
    await openAuditLog([
      entry({
        action: 'holidays_set',
        entity_type: 'system_settings',
        entity_id: 'holidays:2026',
        entity_name: null,
        before: { year: 2026, days: [] },
        after: { year: 2026, days: [{ date: '2026-01-01', name: 'New Year' }] },
      }),
      entry({ id: 8, action: 'spending_rules_set' }),
      entry({ id: 9, action: 'spending_rules_withdraw' }),
      entry({ id: 10, action: 'spending_exception_set', entity_type: 'employee' }),
      entry({ id: 11, action: 'spending_exception_remove', entity_type: 'employee' }),
    ]);
    for (const label of [
      'Set holidays',
      'Set spending rules',
      'Withdrew spending rules',
      'Set spending exception',
      'Removed spending exception',
    ]) {
      expect(await screen.findByRole('cell', { name: label })).toBeInTheDocument();
    }
    await i18n.changeLanguage('zh');
    expect(await screen.findByRole('cell', { name: '设置节假日' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '设置消费规则' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '撤回消费规则' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '设置消费例外' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '移除消费例外' })).toBeInTheDocument();
  });
});
