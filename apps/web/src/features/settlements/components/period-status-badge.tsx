import { useTranslation } from 'react-i18next';
import type { SettlementPeriodStatus } from '@app/contract';
import { Badge } from '@/components/ui/badge';

/** Closed: the half-month is over and its figures are final; open: still running. */
export function PeriodStatusBadge({ status }: { status: SettlementPeriodStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={status === 'closed' ? 'secondary' : 'outline'} data-period-status={status}>
      {t(`settlements.status_${status}`)}
    </Badge>
  );
}
