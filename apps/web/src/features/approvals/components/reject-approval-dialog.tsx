import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { rejectApprovalBodySchema, type Approval } from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import {
  Form,
  FormControl,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { newIdempotencyKey } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { withThousands } from '@/lib/format';
import { useNotifyDone } from '@/lib/notify';
import { useRejectApproval } from '../api/decide-approval';

/** Rejecting asks why: the reason is required and kept with the request. */
export function RejectApprovalDialog({
  approval,
  onClose,
}: {
  approval: Approval | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={approval !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('approvals.reject_title')}</DialogTitle>
          <DialogDescription>
            {approval
              ? t('approvals.reject_description', {
                  total: withThousands(approval.total),
                  name: approval.payload.company_name,
                })
              : null}
          </DialogDescription>
        </DialogHeader>
        {approval && <RejectForm key={approval.id} approval={approval} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

type RejectForm = z.input<typeof rejectApprovalBodySchema>;

function RejectForm({ approval, onDone }: { approval: Approval; onDone: () => void }) {
  const { t } = useTranslation();
  const reject = useRejectApproval();
  const notifyDone = useNotifyDone();
  // One key per opening of the dialog: a double-click or a retry resends it (decision 0068).
  const [idempotencyKey] = useState(newIdempotencyKey);
  const form = useForm<RejectForm, unknown, z.output<typeof rejectApprovalBodySchema>>({
    resolver: formResolver(rejectApprovalBodySchema),
    defaultValues: { reason: '' },
  });
  const onSubmit = form.handleSubmit(({ reason }) =>
    reject.mutate(
      { id: approval.id, reason, idempotencyKey },
      {
        onSuccess: () => {
          notifyDone(t('approvals.rejected_toast', { total: withThousands(approval.total) }));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
          name="reason"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('approvals.reason')}</FormLabel>
              <FormControl>
                <textarea
                  rows={3}
                  maxLength={500}
                  autoFocus
                  className={cn(
                    'w-full rounded-md border border-input bg-transparent px-3 py-2 text-base shadow-xs outline-none md:text-sm',
                    'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50',
                    'aria-invalid:border-destructive',
                  )}
                  {...field}
                />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={reject.isPending} submitLabel={t('approvals.reject')} />
      </form>
    </Form>
  );
}
