import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { createMerchantBodySchema, updateMerchantBodySchema, type Merchant } from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { ReadOnlyField } from '@/components/forms/read-only-field';
import { StatusSelect } from '@/components/forms/status-select';
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
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { applyServerErrors } from '@/lib/forms';
import { useCreateMerchant } from '../api/create-merchant';
import { useUpdateMerchant } from '../api/update-merchant';

export type MerchantDialogState = { mode: 'create' } | { mode: 'edit'; merchant: Merchant } | null;

/** The merchant modal: code (3–12 letters and digits, fixed once created), name, status. */
export function MerchantFormDialog({
  state,
  onClose,
}: {
  state: MerchantDialogState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={state !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {state?.mode === 'edit' ? t('merchants.edit_title') : t('merchants.create_title')}
          </DialogTitle>
          <DialogDescription>
            {state?.mode === 'edit'
              ? t('merchants.edit_description', { name: state.merchant.name })
              : t('merchants.create_description')}
          </DialogDescription>
        </DialogHeader>
        {state?.mode === 'create' && <CreateMerchantForm onDone={onClose} />}
        {state?.mode === 'edit' && <EditMerchantForm merchant={state.merchant} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** Name and status, the same on both forms. */
function NameAndStatusFields({ autoFocusName }: { autoFocusName?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <FormField
        name="name"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('merchants.name')}</FormLabel>
            <FormControl>
              <Input autoComplete="off" autoFocus={autoFocusName} {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="status"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('table.status')}</FormLabel>
            <StatusSelect value={field.value} onChange={field.onChange} />
            <FormMessage />
          </FormItem>
        )}
      />
    </>
  );
}

function CreateMerchantForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const createMerchant = useCreateMerchant();
  const form = useForm<
    z.input<typeof createMerchantBodySchema>,
    unknown,
    z.output<typeof createMerchantBodySchema>
  >({
    resolver: zodResolver(createMerchantBodySchema),
    defaultValues: { code: '', name: '', status: 'active' },
  });
  const onSubmit = form.handleSubmit((values) =>
    createMerchant.mutate(values, {
      onSuccess: () => {
        toast.success(t('toasts.created'));
        onDone();
      },
      onError: (error) =>
        applyServerErrors(form, error, {
          MERCHANT_CODE_ALREADY_EXISTS: 'code',
          DATA_EXISTS: 'code',
        }),
    }),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('merchants.code')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" autoFocus {...field} />
              </FormControl>
              <FormDescription>{t('forms.code_hint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <NameAndStatusFields />
        <FormDialogFooter isPending={createMerchant.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

function EditMerchantForm({ merchant, onDone }: { merchant: Merchant; onDone: () => void }) {
  const { t } = useTranslation();
  const updateMerchant = useUpdateMerchant();
  const form = useForm<
    z.input<typeof updateMerchantBodySchema>,
    unknown,
    z.output<typeof updateMerchantBodySchema>
  >({
    resolver: zodResolver(updateMerchantBodySchema),
    defaultValues: { name: merchant.name, status: merchant.status },
  });
  const onSubmit = form.handleSubmit((body) =>
    updateMerchant.mutate(
      { id: merchant.id, body },
      {
        onSuccess: () => {
          toast.success(t('toasts.updated'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <ReadOnlyField
          label={t('merchants.code')}
          value={merchant.code}
          description={t('forms.code_fixed')}
        />
        <NameAndStatusFields autoFocusName />
        <FormDialogFooter isPending={updateMerchant.isPending} />
      </form>
    </Form>
  );
}
