import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '@app/contract';
import { Badge } from '@/components/ui/badge';

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant={status === 'ordered' ? 'outline' : 'secondary'} data-status={status}>
      {t(`statuses.${status}`)}
    </Badge>
  );
}
