import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Approval, Role } from '@app/contract';
import { i18n } from '@/locales/i18n';
import { answer, errorBody, listOf, signedIn } from '@/test/api';
import { buildApproval } from '@/test/fixtures';
import { locationOf, renderApp } from '@/test/render';

function openApprovals(approvals: Approval[], role: Role = 'company_admin', path = '/approvals') {
  const lists = answer('get', '/api/v1/approvals', (call) =>
    call.query.to_decide === 'true'
      ? listOf([], approvals.filter((a) => a.can_decide).length)
      : listOf(approvals),
  );
  renderApp(path, { user: signedIn(role) });
  return lists;
}

const card = async () => (await screen.findAllByTestId('approval-card'))[0]!;

describe('Approvals', () => {
  it('shows a pending distribution as a readable table, and the count in the sidebar', async () => {
    const lists = openApprovals([buildApproval()]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible();
    const request = within(await card());
    expect(
      request.getByRole('heading', { name: 'Distribution of 300 tokens at Acme Corporation' }),
    ).toBeVisible();
    const table = request.getByRole('table', { name: 'Who gets how much at Acme Corporation' });
    const ada = within(table).getByText('Ada Lovelace').closest('tr')!;
    expect(ada).toHaveTextContent('E001');
    expect(ada).toHaveTextContent('200');
    // No name: the staff number stands for it.
    expect(within(table).getByText('E002').closest('tr')).toHaveTextContent('100');
    expect(within(table).getByTestId('approval-total')).toHaveTextContent('300');
    expect(request.getByText('acme.hr', { exact: false })).toBeVisible();
    expect(request.getByText('Overtime')).toBeVisible();
    expect(lists.some((c) => c.query.status === 'pending' && c.query.to_decide === undefined)).toBe(
      true,
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByTestId('nav-badge-approvals')).toHaveTextContent('1');
  });

  it('approves after confirming, and refreshes the list and the count', async () => {
    const lists = openApprovals([buildApproval()]);
    const approves = answer('post', '/api/v1/approvals/41/approve', {
      data: buildApproval({ status: 'approved', can_decide: false }),
    });
    await userEvent.click(within(await card()).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Approve this request?' });
    expect(confirm).toHaveTextContent('300 tokens will be distributed from Acme Corporation to 2');
    const before = lists.length;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved: 300 tokens applied')).toBeInTheDocument();
    expect(approves).toHaveLength(1);
    // Nothing changed since the request: nothing to confirm.
    expect(approves[0]?.body).toBeUndefined();
    await waitFor(() => expect(lists.length).toBeGreaterThan(before + 1));
  });

  it('shows a payee renumbered and renamed since the request as it is now, and approves only with the change confirmed', async () => {
    const renamed = buildApproval({
      payee_changes: [
        {
          employee_id: 11,
          staff_number_then: 'E001',
          name_then: 'Ada Lovelace',
          staff_number: 'E099',
          name: 'Mallory Moss',
          changed: ['staff_number', 'name'],
        },
      ],
    });
    openApprovals([renamed]);
    const approves = answer('post', '/api/v1/approvals/41/approve', {
      data: buildApproval({ status: 'approved', can_decide: false }),
    });
    const request = within(await card());
    expect(request.getByTestId('payee-changes-note')).toHaveTextContent(
      '1 employee was renumbered or renamed since the request',
    );
    const table = request.getByRole('table', { name: 'Who gets how much at Acme Corporation' });
    // The payee as it is now, marked, with what it was when requested.
    const row = within(table).getByText('Mallory Moss').closest('tr')!;
    expect(row).toHaveTextContent('E099');
    expect(within(row).getByTestId('payee-change')).toHaveTextContent(
      'Changed since the requestWas E001 Ada Lovelace when requested',
    );
    expect(within(table).queryByText('Ada Lovelace')).toBeNull();

    await userEvent.click(request.getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog', {
      name: 'Approve with the changed payees?',
    });
    expect(confirm).toHaveTextContent(
      'Since the request, 1 employee changed: E001 Ada Lovelace → E099 Mallory Moss.',
    );
    await userEvent.click(
      within(confirm).getByRole('button', { name: 'Confirm changes and approve' }),
    );
    expect(await screen.findByText('Approved: 300 tokens applied')).toBeInTheDocument();
    expect(approves[0]?.body).toEqual({
      confirm_payees: [{ employee_id: 11, staff_number: 'E099', name: 'Mallory Moss' }],
    });
  });

  it('does not approve when the confirmation is cancelled', async () => {
    openApprovals([buildApproval()]);
    const approves = answer('post', '/api/v1/approvals/41/approve', {});
    await userEvent.click(within(await card()).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(approves).toHaveLength(0);
  });

  it('shows the balance error when the balance no longer covers it', async () => {
    openApprovals([buildApproval()]);
    answer('post', '/api/v1/approvals/41/approve', errorBody(409, 'TOTAL_EXCEEDS_AVAILABLE'));
    await userEvent.click(within(await card()).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Total tokens exceed available limit!')).toBeInTheDocument();
  });

  it('sends an Idempotency-Key with the approval, the same one again until it succeeds', async () => {
    openApprovals([buildApproval()]);
    let calls = 0;
    const approves = answer('post', '/api/v1/approvals/41/approve', () =>
      (calls += 1) === 1
        ? errorBody(503, 'SERVICE_UNAVAILABLE')
        : { data: buildApproval({ status: 'approved', can_decide: false }) },
    );
    const approveOnce = async () => {
      await userEvent.click(within(await card()).getByRole('button', { name: 'Approve' }));
      const confirm = await screen.findByRole('alertdialog', { name: 'Approve this request?' });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Approve' }));
    };
    await approveOnce();
    await waitFor(() => expect(approves).toHaveLength(1));
    // The server error's alert, dismissed; then the retry.
    const alert = await screen.findByRole('alertdialog');
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await approveOnce();
    expect(await screen.findByText('Approved: 300 tokens applied')).toBeInTheDocument();
    const keys = approves.map((call) => call.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
  });

  it('rejects only with a reason', async () => {
    openApprovals([buildApproval()]);
    const rejects = answer('post', '/api/v1/approvals/41/reject', {
      data: buildApproval({ status: 'rejected', reason: 'Not this month', can_decide: false }),
    });
    await userEvent.click(within(await card()).getByRole('button', { name: 'Reject' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject this request?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Reject' }));
    expect(await dialog.findByText('Fill in this field')).toBeInTheDocument();
    expect(rejects).toHaveLength(0);
    await userEvent.type(dialog.getByLabelText('Reason'), 'Not this month');
    await userEvent.click(dialog.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Rejected: 300 tokens not applied')).toBeInTheDocument();
    expect(rejects[0]?.body).toEqual({ reason: 'Not this month' });
    expect(rejects[0]?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows decided requests with who decided and why, and no actions', async () => {
    const lists = openApprovals(
      [
        buildApproval({
          status: 'rejected',
          can_decide: false,
          decided_by: 9,
          decided_by_username: 'group.hr',
          decided_at: '2026-01-11T10:00:00.000Z',
          reason: 'Budget',
        }),
      ],
      'super_hr',
      '/approvals?tab=decided',
    );
    const request = within(await card());
    expect(request.getByText('Rejected')).toBeVisible();
    expect(request.getByText('group.hr', { exact: false })).toBeVisible();
    expect(request.getByText('Budget')).toBeVisible();
    expect(request.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Decided' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() =>
      expect(lists.some((c) => c.query.status === 'approved,rejected,expired')).toBe(true),
    );
  });

  it('says when nothing waits', async () => {
    openApprovals([]);
    expect(await screen.findByText('Nothing is waiting for approval.')).toBeVisible();
  });

  it('lets the admin set the thresholds (empty turns a rule off), in Chinese too', async () => {
    openApprovals([buildApproval({ kind: 'top_up', can_decide: false })], 'admin');
    answer('get', '/api/v1/sys/approval-policy', {
      data: {
        top_up_threshold: null,
        distribution_threshold: 500,
        updated_at: null,
        updated_by: null,
      },
    });
    const puts = answer('put', '/api/v1/sys/approval-policy', (call) => ({
      data: { ...(call.body as object), updated_at: null, updated_by: 1 },
    }));
    const policy = within(await screen.findByTestId('approval-policy'));
    const topUp = await policy.findByLabelText('Top-up threshold (tokens)');
    expect(topUp).toHaveValue(null);
    expect(policy.getByLabelText('Distribution threshold (tokens)')).toHaveValue(500);
    expect(await screen.findByText('Waiting for another person to decide.')).toBeVisible();
    await userEvent.type(topUp, '10000');
    await userEvent.clear(policy.getByLabelText('Distribution threshold (tokens)'));
    await userEvent.click(policy.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Approval policy saved')).toBeInTheDocument();
    expect(puts[0]?.body).toEqual({ top_up_threshold: 10000, distribution_threshold: null });

    await i18n.changeLanguage('zh');
    try {
      expect(await screen.findByRole('heading', { level: 1, name: '审批' })).toBeVisible();
      expect(screen.getByRole('tab', { name: '待审批' })).toBeVisible();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('shows a load failure with a retry', async () => {
    answer('get', '/api/v1/approvals', () => errorBody(400, 'QUERY_PARAM_INVALID'));
    renderApp('/approvals', { user: signedIn('company_admin') });
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again');
  });

  it('is not offered to merchant roles', async () => {
    const { router } = renderApp('/approvals', { user: signedIn('merchant_admin') });
    await waitFor(() => expect(locationOf(router)).toBe('/error/403'));
  });
});
