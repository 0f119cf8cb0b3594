import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { webhookEventsOf, type Webhook } from '@app/contract';
import type { TableSearch } from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { Button } from '@/components/ui/button';
import { confirmAlert } from '@/lib/alert-store';
import { useAuthStore } from '@/lib/auth-store';
import { deleteWithConfirm } from '@/lib/status-actions';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { useUpdateWebhook } from '../api/update-webhook';
import { WebhookDeliveriesDialog } from '../components/webhook-deliveries-dialog';
import { WebhookFormDialog } from '../components/webhook-form-dialog';
import { WebhookSecretDialog, type RevealedSecret } from '../components/webhook-secret-dialog';
import { webhooksColumns } from '../components/webhooks-columns';
import type { webhooksSearch } from '../search';

/**
 * Webhooks (/webhooks; admin, merchant admin, company admin; decision 0038): the endpoints of the
 * caller's scope with their status; add one with the events its role may receive (the secret
 * shown once), rotate its secret, disable / enable, delete (each behind a confirmation), and its
 * delivery log with a retry.
 */
export function WebhooksPage({ table }: { table: TableSearch<typeof webhooksSearch.filters> }) {
  const { t } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const webhooks = useWebhooks(table.query);
  const { mutate: update } = useUpdateWebhook();
  const { mutate: rotate, reset: forgetRotation } = useRotateWebhookSecret();
  const { mutate: remove } = useDeleteWebhook();
  const [isAdding, setAdding] = useState(false);
  const [revealed, setRevealed] = useState<RevealedSecret | null>(null);
  const [deliveriesOf, setDeliveriesOf] = useState<Webhook | null>(null);
  const events = webhookEventsOf(role);

  const columns = useMemo(() => {
    const onRotateSecret = async (endpoint: Webhook) => {
      const confirmed = await confirmAlert({
        id: `rotate-webhook-${endpoint.id}`,
        titleKey: 'webhooks.rotate_title',
        messageKey: 'webhooks.rotate_message',
        values: { url: endpoint.url },
        confirmKey: 'webhooks.rotate',
        cancelKey: 'actions.cancel',
        destructive: true,
      });
      if (!confirmed) return;
      rotate(endpoint.id, {
        onSuccess: (withSecret) => {
          forgetRotation();
          setRevealed({ endpoint: withSecret, reason: 'rotated' });
        },
      });
    };
    const onToggleStatus = async (endpoint: Webhook) => {
      const isActive = endpoint.status === 'active';
      const confirmed = await confirmAlert({
        id: `status-webhook-${endpoint.id}`,
        titleKey: isActive ? 'webhooks.disable_title' : 'webhooks.enable_title',
        messageKey: isActive ? 'webhooks.disable_message' : 'webhooks.enable_message',
        values: { url: endpoint.url },
        confirmKey: isActive ? 'webhooks.disable' : 'webhooks.enable',
        cancelKey: 'actions.cancel',
        destructive: isActive,
      });
      if (!confirmed) return;
      update(
        { id: endpoint.id, body: { status: isActive ? 'disabled' : 'active' } },
        {
          onSuccess: () =>
            toast.success(t(isActive ? 'webhooks.disabled_toast' : 'webhooks.enabled_toast')),
        },
      );
    };
    return webhooksColumns(t, {
      onDeliveries: setDeliveriesOf,
      onRotateSecret: (endpoint) => void onRotateSecret(endpoint),
      onToggleStatus: (endpoint) => void onToggleStatus(endpoint),
      onDelete: (endpoint) =>
        void deleteWithConfirm(endpoint.url, (callbacks) => remove(endpoint.id, callbacks)),
    });
  }, [t, rotate, forgetRotation, update, remove]);

  return (
    <ListPage
      title={t('nav.webhooks')}
      description={t('webhooks.description')}
      actions={
        <Button onClick={() => setAdding(true)}>
          <Plus aria-hidden />
          {t('webhooks.add')}
        </Button>
      }
      table={table}
      label={t('webhooks.table_label')}
      columns={columns}
      query={webhooks}
      tableId="webhooks"
      getRowId={(endpoint) => String(endpoint.id)}
      emptyMessage={t('webhooks.empty')}
    >
      <WebhookFormDialog
        isOpen={isAdding}
        events={events}
        onClose={() => setAdding(false)}
        onCreated={(endpoint) => {
          toast.success(t('toasts.created'));
          setAdding(false);
          setRevealed({ endpoint, reason: 'created' });
        }}
      />
      <WebhookSecretDialog revealed={revealed} onClose={() => setRevealed(null)} />
      <WebhookDeliveriesDialog endpoint={deliveriesOf} onClose={() => setDeliveriesOf(null)} />
    </ListPage>
  );
}
