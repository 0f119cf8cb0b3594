import { LoaderCircle, RotateCw } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookDelivery } from '@app/contract';
import { DateTime } from '@/components/data-table';
import { DetailError } from '@/components/layout/detail-layout';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useRetryWebhookDelivery } from '../api/retry-webhook-delivery';

const STATUS_VARIANT = {
  pending: 'secondary',
  succeeded: 'success',
  failed: 'destructive',
} as const;

/**
 * The delivery log of one endpoint, newest first, 20 at a time: each delivery's event, status,
 * attempts, last answer and next attempt, and a retry that sends it again now (same webhook-id).
 * Cards rather than a table, so a phone shows every field without scrolling sideways.
 */
export function WebhookDeliveriesDialog({
  endpoint,
  onClose,
}: {
  endpoint: Webhook | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={endpoint !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{t('webhooks.deliveries_title')}</DialogTitle>
          <DialogDescription className="break-all">{endpoint?.url}</DialogDescription>
        </DialogHeader>
        {endpoint && <Deliveries endpointId={endpoint.id} />}
      </DialogContent>
    </Dialog>
  );
}

function Deliveries({ endpointId }: { endpointId: number }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(endpointId);
  const retry = useRetryWebhookDelivery();
  if (deliveries.isPending) {
    return (
      <div className="grid gap-2" aria-busy="true" aria-label={t('webhooks.loading_deliveries')}>
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  }
  if (deliveries.isError) {
    return <DetailError error={deliveries.error} onRetry={() => void deliveries.refetch()} />;
  }
  const rows = deliveries.data.pages.flatMap((page) => page.data);
  if (rows.length === 0) {
    return <p className="py-6 text-center text-muted-foreground">{t('webhooks.no_deliveries')}</p>;
  }
  const onRetry = (delivery: WebhookDelivery) =>
    retry.mutate(
      { endpointId, deliveryId: delivery.id },
      { onSuccess: () => toast.success(t('webhooks.retry_queued')) },
    );
  return (
    <div className="grid gap-3">
      <ul className="grid gap-2" aria-label={t('webhooks.deliveries_title')}>
        {rows.map((delivery) => (
          <li key={delivery.id} className="grid gap-2 rounded-md border p-3 text-sm">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-mono font-medium">{delivery.event_type}</span>
              <Badge variant={STATUS_VARIANT[delivery.status]} data-status={delivery.status}>
                {t(`webhooks.delivery_statuses.${delivery.status}`)}
              </Badge>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
              <dt className="text-muted-foreground">{t('webhooks.event_id')}</dt>
              <dd className="font-mono text-xs break-all">{delivery.event_id}</dd>
              <dt className="text-muted-foreground">{t('webhooks.attempts')}</dt>
              <dd className="tabular-nums">{delivery.attempts}</dd>
              <dt className="text-muted-foreground">{t('webhooks.last_answer')}</dt>
              <dd className="break-all">
                {delivery.last_status_code ?? (delivery.attempts > 0 ? '—' : '')}
                {delivery.last_response ? ` ${delivery.last_response.slice(0, 120)}` : ''}
                {delivery.attempts === 0 && t('webhooks.not_sent_yet')}
              </dd>
              <dt className="text-muted-foreground">{t('webhooks.next_attempt')}</dt>
              <dd>
                <DateTime value={delivery.status === 'pending' ? delivery.next_attempt_at : null} />
              </dd>
            </dl>
            <div>
              <Button
                type="button"
                size="sm"
                variant="outline"
                disabled={retry.isPending}
                onClick={() => onRetry(delivery)}
                aria-label={t('webhooks.retry_label', { id: delivery.event_id })}
              >
                <RotateCw aria-hidden />
                {t('webhooks.retry')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {deliveries.hasNextPage && (
        <Button
          type="button"
          variant="outline"
          disabled={deliveries.isFetchingNextPage}
          onClick={() => void deliveries.fetchNextPage()}
        >
          {deliveries.isFetchingNextPage && <LoaderCircle className="animate-spin" aria-hidden />}
          {t('webhooks.load_more')}
        </Button>
      )}
    </div>
  );
}
