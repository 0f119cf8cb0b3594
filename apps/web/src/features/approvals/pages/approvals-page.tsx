import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Approval } from '@app/contract';
import { DetailError } from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { confirmAlert } from '@/lib/alert-store';
import { newIdempotencyKey } from '@/lib/api-client';
import { withThousands } from '@/lib/format';
import { useNotifyDone } from '@/lib/notify';
import { useApproveApproval } from '../api/decide-approval';
import { useApprovals } from '../api/get-approvals';
import { ApprovalCard } from '../components/approval-card';
import { payeeLabel } from '../components/approval-payload-table';
import { ApprovalPolicyCard } from '../components/approval-policy-card';
import { RejectApprovalDialog } from '../components/reject-approval-dialog';

export type ApprovalsTab = 'pending' | 'decided';
const TABS: ApprovalsTab[] = ['pending', 'decided'];
const STATUSES: Record<ApprovalsTab, string> = {
  pending: 'pending',
  decided: 'approved,rejected,expired',
};
const PAGE_SIZE = 20;

/**
 * Approvals (admin, Group HR, company admin: decision 0039): the four-eyes requests of the
 * caller's scope, pending and decided, each with what it will do as a table; approving asks for
 * confirmation, rejecting for a reason. The admin also sets the thresholds here.
 */
export function ApprovalsPage({
  tab,
  onTab,
  canEditPolicy,
}: {
  tab: ApprovalsTab;
  onTab: (tab: ApprovalsTab) => void;
  canEditPolicy: boolean;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const approvals = useApprovals({ status: STATUSES[tab], page, page_size: PAGE_SIZE });
  const approve = useApproveApproval();
  const notifyDone = useNotifyDone();
  const [rejecting, setRejecting] = useState<Approval | null>(null);
  // Each approval's Idempotency-Key, made when its approve confirm first opens and kept until the
  // approval succeeds: a double-click or a retry after a lost answer resends it, so it is applied
  // once (decision 0068). A refusal keeps no key on the server, so sending it again is harmless.
  const approveKeys = useRef(new Map<number, string>());
  const tabRefs = useRef<Record<ApprovalsTab, HTMLButtonElement | null>>({
    pending: null,
    decided: null,
  });

  const select = (next: ApprovalsTab) => {
    setPage(1);
    onTab(next);
  };
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    select(next);
    tabRefs.current[next]?.focus();
  };

  const onApprove = async (approval: Approval) => {
    const changes = approval.payee_changes;
    // Payees renumbered or renamed since the request: the approver confirms them as they are now.
    const keys = approveKeys.current;
    const idempotencyKey = keys.get(approval.id) ?? newIdempotencyKey();
    keys.set(approval.id, idempotencyKey);
    const confirmed = await confirmAlert({
      id: `approve-${approval.id}`,
      titleKey: changes.length
        ? 'approvals.approve_title_payee_changed'
        : 'approvals.approve_title',
      messageKey: changes.length
        ? 'approvals.approve_message_payee_changed'
        : `approvals.approve_message_${approval.kind}`,
      values: {
        total: withThousands(approval.total),
        name: approval.payload.company_name,
        count: changes.length || (approval.payload.items?.length ?? 1),
        changes: changes
          .map(
            (c) =>
              `${payeeLabel(c.staff_number_then, c.name_then)} → ${payeeLabel(c.staff_number, c.name)}`,
          )
          .join('; '),
      },
      confirmKey: changes.length ? 'approvals.approve_confirm_payee_changed' : 'approvals.approve',
      cancelKey: 'actions.cancel',
    });
    if (!confirmed) return;
    const confirm_payees = changes.length
      ? changes.map(({ employee_id, staff_number, name }) => ({ employee_id, staff_number, name }))
      : undefined;
    approve.mutate(
      { id: approval.id, confirm_payees, idempotencyKey },
      {
        onSuccess: () => {
          keys.delete(approval.id);
          notifyDone(t('approvals.approved_toast', { total: withThousands(approval.total) }));
        },
      },
    );
  };

  const total = approvals.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <>
      <PageHeader title={t('nav.approvals')} description={t('approvals.description')} />
      {canEditPolicy && <ApprovalPolicyCard />}
      <div
        role="tablist"
        aria-label={t('approvals.tabs_label')}
        className="mb-4 flex gap-1 border-b"
      >
        {TABS.map((name) => (
          <button
            key={name}
            ref={(node) => {
              tabRefs.current[name] = node;
            }}
            type="button"
            role="tab"
            id={`approvals-tab-${name}`}
            aria-selected={tab === name}
            aria-controls="approvals-panel"
            tabIndex={tab === name ? 0 : -1}
            onKeyDown={onTabKey}
            onClick={() => select(name)}
            className={
              tab === name
                ? '-mb-px border-b-2 border-primary px-3 py-2 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50'
                : '-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50'
            }
          >
            {t(`approvals.tab_${name}`)}
          </button>
        ))}
      </div>
      <div id="approvals-panel" role="tabpanel" aria-labelledby={`approvals-tab-${tab}`}>
        {approvals.isPending ? (
          <div className="grid gap-4" aria-busy="true">
            <Skeleton className="h-48 w-full" />
            <Skeleton className="h-48 w-full" />
          </div>
        ) : approvals.isError ? (
          <DetailError error={approvals.error} onRetry={() => void approvals.refetch()} />
        ) : approvals.data.data.length === 0 ? (
          <p className="rounded-md border p-6 text-center text-sm text-muted-foreground">
            {t(`approvals.empty_${tab}`)}
          </p>
        ) : (
          <div className="grid gap-4">
            {approvals.data.data.map((approval) => (
              <ApprovalCard
                key={approval.id}
                approval={approval}
                busy={approve.isPending}
                onApprove={(a) => void onApprove(a)}
                onReject={setRejecting}
              />
            ))}
            {pages > 1 && (
              <nav
                aria-label={t('approvals.pages_label')}
                className="flex items-center justify-end gap-2 text-sm"
              >
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page <= 1}
                  onClick={() => setPage(page - 1)}
                >
                  {t('approvals.previous')}
                </Button>
                <span>{t('approvals.page_of', { page, pages })}</span>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={page >= pages}
                  onClick={() => setPage(page + 1)}
                >
                  {t('approvals.next')}
                </Button>
              </nav>
            )}
          </div>
        )}
      </div>
      <RejectApprovalDialog approval={rejecting} onClose={() => setRejecting(null)} />
    </>
  );
}
