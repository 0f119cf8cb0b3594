import { useTranslation } from 'react-i18next';
import type { RefundState } from '@app/contract';
import { Badge } from '@/components/ui/badge';

/**
 * An order's state as people read it: Ordered, Partially refunded (0 < refunded < subtotal) or
 * Refunded. The API's `status` stays ordered/refunded; `refund_state` tells the partial case.
 */
export function RefundStateBadge({ state }: { state: RefundState }) {
  const { t } = useTranslation();
  const variant = state === 'none' ? 'outline' : state === 'partial' ? 'default' : 'secondary';
  return (
    <Badge variant={variant} data-refund-state={state}>
      {t(`order_states.${state}`)}
    </Badge>
  );
}
