import { Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Approval } from '@app/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime, withThousands } from '@/lib/format';
import { ApprovalPayloadTable } from './approval-payload-table';

const STATUS_VARIANT = {
  pending: 'secondary',
  approved: 'success',
  rejected: 'destructive',
  expired: 'outline',
} as const;

/** One request: what, for whom, asked by whom and when, its decision, and the actions. */
export function ApprovalCard({
  approval,
  onApprove,
  onReject,
  busy,
}: {
  approval: Approval;
  onApprove: (approval: Approval) => void;
  onReject: (approval: Approval) => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation();
  const title = t(`approvals.kinds.${approval.kind}`, {
    total: withThousands(approval.total),
    name: approval.payload.company_name,
  });
  return (
    <Card className="gap-4" data-testid="approval-card" aria-labelledby={`approval-${approval.id}`}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
        <CardTitle>
          <h2 id={`approval-${approval.id}`} className="text-base font-semibold">
            {title}
          </h2>
        </CardTitle>
        <Badge variant={STATUS_VARIANT[approval.status]}>
          {t(`approvals.statuses.${approval.status}`)}
        </Badge>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted-foreground">{t('approvals.requested_by')}</dt>
          <dd>
            {approval.requested_by_username ?? `#${approval.requested_by}`} ·{' '}
            {formatDateTime(approval.created_at, i18n.language)}
          </dd>
          {approval.status === 'pending' && (
            <>
              <dt className="text-muted-foreground">{t('approvals.expires_at')}</dt>
              <dd>{formatDateTime(approval.expires_at, i18n.language)}</dd>
            </>
          )}
          {approval.decided_at && (
            <>
              <dt className="text-muted-foreground">{t('approvals.decided')}</dt>
              <dd>
                {approval.decided_by_username ?? t('approvals.system')} ·{' '}
                {formatDateTime(approval.decided_at, i18n.language)}
              </dd>
            </>
          )}
          {approval.reason && (
            <>
              <dt className="text-muted-foreground">{t('approvals.reason')}</dt>
              <dd className="break-words">{approval.reason}</dd>
            </>
          )}
          {approval.payload.note && (
            <>
              <dt className="text-muted-foreground">{t('approvals.note')}</dt>
              <dd className="break-words">{approval.payload.note}</dd>
            </>
          )}
        </dl>
        {approval.status === 'pending' && approval.payee_changes.length > 0 && (
          <div
            className="rounded-md border border-destructive/50 p-3 text-sm"
            data-testid="payee-changes-note"
          >
            <p className="font-medium">
              {t('approvals.payee_changes_title', { count: approval.payee_changes.length })}
            </p>
            <p className="text-muted-foreground">{t('approvals.payee_changes_description')}</p>
          </div>
        )}
        <div className="overflow-x-auto">
          <ApprovalPayloadTable approval={approval} />
        </div>
      </CardContent>
      {approval.can_decide && (
        <CardFooter className="flex flex-wrap justify-end gap-2">
          <Button
            variant="outline"
            disabled={busy}
            onClick={() => onReject(approval)}
            aria-describedby={`approval-${approval.id}`}
          >
            <X aria-hidden />
            {t('approvals.reject')}
          </Button>
          <Button
            disabled={busy}
            onClick={() => onApprove(approval)}
            aria-describedby={`approval-${approval.id}`}
          >
            <Check aria-hidden />
            {t('approvals.approve')}
          </Button>
        </CardFooter>
      )}
      {approval.status === 'pending' && !approval.can_decide && (
        <CardFooter>
          <p className="text-sm text-muted-foreground">{t('approvals.waiting_for_other')}</p>
        </CardFooter>
      )}
    </Card>
  );
}
