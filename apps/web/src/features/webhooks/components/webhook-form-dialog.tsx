import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  createWebhookBodySchema,
  type WebhookEventType,
  type WebhookWithSecret,
} from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { TextField } from '@/components/forms/text-field';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form, FormField, FormItem, FormMessage } from '@/components/ui/form';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { useCreateWebhook } from '../api/create-webhook';

interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEventType[];
}

/**
 * Adds an endpoint: its https address, a description and the events to receive, as checkboxes
 * of the events the caller's role may receive (`events`). The created endpoint, with its secret,
 * goes to `onCreated`, which shows the secret once.
 */
export function WebhookFormDialog({
  isOpen,
  events,
  onClose,
  onCreated,
}: {
  isOpen: boolean;
  events: readonly WebhookEventType[];
  onClose: () => void;
  onCreated: (endpoint: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={isOpen} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('webhooks.create_title')}</DialogTitle>
          <DialogDescription>{t('webhooks.create_description')}</DialogDescription>
        </DialogHeader>
        {isOpen && <WebhookForm events={events} onCreated={onCreated} />}
      </DialogContent>
    </Dialog>
  );
}

function WebhookForm({
  events,
  onCreated,
}: {
  events: readonly WebhookEventType[];
  onCreated: (endpoint: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const legendId = useId();
  const create = useCreateWebhook();
  const form = useForm<WebhookFormValues, unknown, WebhookFormValues>({
    resolver: formResolver<WebhookFormValues>(createWebhookBodySchema),
    defaultValues: { url: 'https://', description: '', events: [] },
  });
  const onSubmit = form.handleSubmit(({ url, description, events: chosen }) => {
    create.mutate(
      { url, events: chosen, ...(description.trim() ? { description } : {}) },
      {
        onSuccess: (created) => {
          create.reset();
          onCreated(created);
        },
        onError: (error) =>
          applyServerErrors(form, error, {
            WEBHOOK_URL_NOT_ALLOWED: 'url',
            WEBHOOK_EVENT_NOT_ALLOWED: 'events',
          }),
      },
    );
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <TextField
          name="url"
          label={t('webhooks.url')}
          description={t('webhooks.url_hint')}
          autoFocus
        />
        <TextField name="description" label={t('webhooks.description_label')} />
        <FormField
          name="events"
          render={({ field }) => {
            const chosen = (field.value ?? []) as WebhookEventType[];
            return (
              <FormItem>
                <fieldset aria-labelledby={legendId} className="grid gap-2">
                  <legend id={legendId} className="mb-1 text-sm font-medium">
                    {t('webhooks.events')}
                  </legend>
                  {events.map((event) => {
                    const id = `${legendId}-${event}`;
                    return (
                      <div key={event} className="flex items-start gap-2">
                        <Checkbox
                          id={id}
                          checked={chosen.includes(event)}
                          onCheckedChange={(checked) =>
                            field.onChange(
                              checked === true
                                ? events.filter((e) => e === event || chosen.includes(e))
                                : chosen.filter((e) => e !== event),
                            )
                          }
                        />
                        <label htmlFor={id} className="grid gap-0.5 text-sm leading-none">
                          <span className="font-mono">{event}</span>
                          <span className="text-muted-foreground">
                            {t(`webhooks.event_help.${event.replace('.', '_')}`)}
                          </span>
                        </label>
                      </div>
                    );
                  })}
                </fieldset>
                <FormMessage />
              </FormItem>
            );
          }}
        />
        <FormDialogFooter isPending={create.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}
