import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import {
  createMerchantBodySchema,
  updateMerchantBodySchema,
  type Merchant,
  type MerchantCategory,
  type Status,
} from '@app/contract';
import { StatusField } from '@/components/forms/account-fields';
import { CodeField } from '@/components/forms/code-field';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { TextField } from '@/components/forms/text-field';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Form } from '@/components/ui/form';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { useCreateMerchant } from '../api/create-merchant';
import { useUpdateMerchant } from '../api/update-merchant';
import { MerchantCategoryField } from './merchant-category';

export type MerchantDialogState = { mode: 'create' } | { mode: 'edit'; merchant: Merchant } | null;

/**
 * The merchant modal: code (3–12 letters and digits, fixed once created), name, status and its
 * category (what a company's spending rules may allow: DESIGN 7).
 */
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
        {state && (
          <MerchantForm
            key={state.mode === 'edit' ? state.merchant.id : 'create'}
            merchant={state.mode === 'edit' ? state.merchant : undefined}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What the one form holds; editing sends all but the code, which is fixed. */
interface MerchantFormValues {
  code: string;
  name: string;
  status: Status;
  category: MerchantCategory;
}

/** One form for creating (without `merchant`) and editing a merchant (issue 19 item 6). */
function MerchantForm({ merchant, onDone }: { merchant?: Merchant; onDone: () => void }) {
  const { t } = useTranslation();
  const createMerchant = useCreateMerchant();
  const updateMerchant = useUpdateMerchant();
  const form = useForm<MerchantFormValues, unknown, MerchantFormValues>({
    resolver: formResolver<MerchantFormValues>(
      merchant ? updateMerchantBodySchema : createMerchantBodySchema,
    ),
    defaultValues: {
      code: merchant?.code ?? '',
      name: merchant?.name ?? '',
      status: merchant?.status ?? 'active',
      category: merchant?.category ?? 'other',
    },
  });
  const onSubmit = form.handleSubmit((values) => {
    if (merchant) {
      updateMerchant.mutate(
        {
          id: merchant.id,
          body: { name: values.name, status: values.status, category: values.category },
        },
        {
          onSuccess: () => {
            toast.success(t('toasts.updated'));
            onDone();
          },
          onError: (error) => applyServerErrors(form, error),
        },
      );
      return;
    }
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
    });
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <CodeField
          label={t('merchants.code')}
          hint={t('forms.code_hint')}
          fixedValue={merchant?.code}
          autoFocus
        />
        <TextField name="name" label={t('merchants.name')} autoFocus={merchant !== undefined} />
        <StatusField />
        <MerchantCategoryField />
        <FormDialogFooter
          isPending={createMerchant.isPending || updateMerchant.isPending}
          submitLabel={merchant ? undefined : t('actions.create')}
        />
      </form>
    </Form>
  );
}
