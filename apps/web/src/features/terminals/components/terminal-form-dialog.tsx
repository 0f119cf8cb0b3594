import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import {
  createTerminalBodySchema,
  updateTerminalBodySchema,
  type Status,
  type Terminal,
  type TerminalWithKey,
} from '@app/contract';
import type { Option } from '@/components/data-table';
import { StatusField } from '@/components/forms/account-fields';
import { CodeField } from '@/components/forms/code-field';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { ReadOnlyField } from '@/components/forms/read-only-field';
import { TextField } from '@/components/forms/text-field';
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
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { formResolver } from '@/lib/form-resolver';
import { applyServerErrors } from '@/lib/forms';
import { useCreateTerminal } from '../api/create-terminal';
import { useUpdateTerminal } from '../api/update-terminal';

export type TerminalDialogState =
  { mode: 'create'; merchantId?: number } | { mode: 'edit'; terminal: Terminal } | null;

/**
 * The terminal modal. Creating: merchant, code (unique per merchant), name, status; the new
 * terminal, with its key, goes to `onCreated` (which shows the key once). Editing: name and
 * status; merchant and code are fixed.
 */
export function TerminalFormDialog({
  state,
  onClose,
  onCreated,
  merchantOptions,
}: {
  state: TerminalDialogState;
  onClose: () => void;
  onCreated: (terminal: TerminalWithKey) => void;
  merchantOptions: Option[];
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={state !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {state?.mode === 'edit' ? t('terminals.edit_title') : t('terminals.create_title')}
          </DialogTitle>
          <DialogDescription>
            {state?.mode === 'edit'
              ? t('terminals.edit_description', { code: state.terminal.code })
              : t('terminals.create_description')}
          </DialogDescription>
        </DialogHeader>
        {state && (
          <TerminalForm
            key={state.mode === 'edit' ? state.terminal.id : 'create'}
            terminal={state.mode === 'edit' ? state.terminal : undefined}
            defaultMerchantId={state.mode === 'create' ? state.merchantId : undefined}
            merchantOptions={merchantOptions}
            onCreated={onCreated}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** What the one form holds; editing sends the name and status only. */
interface TerminalFormValues {
  merchant_id: number | undefined;
  code: string;
  name: string;
  status: Status;
}

function MerchantSelectField({ options }: { options: Option[] }) {
  const { t } = useTranslation();
  return (
    <FormField
      name="merchant_id"
      render={({ field }) => (
        <FormItem>
          <FormLabel>{t('terminals.merchant')}</FormLabel>
          <Select
            value={field.value ? String(field.value) : undefined}
            onValueChange={(value) => field.onChange(Number(value))}
          >
            <FormControl>
              <SelectTrigger className="w-full">
                <SelectValue placeholder={t('forms.select_placeholder')} />
              </SelectTrigger>
            </FormControl>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

/** One form for creating (without `terminal`) and editing a terminal (issue 19 item 6). */
function TerminalForm({
  terminal,
  defaultMerchantId,
  merchantOptions,
  onCreated,
  onDone,
}: {
  terminal?: Terminal;
  defaultMerchantId?: number;
  merchantOptions: Option[];
  onCreated: (terminal: TerminalWithKey) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const createTerminal = useCreateTerminal();
  const updateTerminal = useUpdateTerminal();
  const form = useForm<TerminalFormValues, unknown, TerminalFormValues>({
    resolver: formResolver<TerminalFormValues>(
      terminal ? updateTerminalBodySchema : createTerminalBodySchema,
    ),
    defaultValues: {
      merchant_id: terminal?.merchant_id ?? defaultMerchantId,
      code: terminal?.code ?? '',
      name: terminal?.name ?? '',
      status: terminal?.status ?? 'active',
    },
  });
  const merchantName = terminal
    ? (merchantOptions.find((option) => option.value === String(terminal.merchant_id))?.label ??
      `#${terminal.merchant_id}`)
    : undefined;
  const onSubmit = form.handleSubmit(({ merchant_id: merchantId, code, name, status }) => {
    if (terminal) {
      updateTerminal.mutate(
        { id: terminal.id, body: { name, status } },
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
    createTerminal.mutate(
      { merchant_id: merchantId!, code, name, status },
      {
        onSuccess: (created) => {
          createTerminal.reset();
          onCreated(created);
        },
        onError: (error) =>
          applyServerErrors(form, error, {
            TERMINAL_CODE_ALREADY_EXISTS: 'code',
            RECORD_NOT_FOUND: 'merchant_id',
          }),
      },
    );
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        {merchantName === undefined ? (
          <MerchantSelectField options={merchantOptions} />
        ) : (
          <ReadOnlyField label={t('terminals.merchant')} value={merchantName} />
        )}
        <CodeField
          label={t('terminals.code')}
          hint={t('terminals.code_hint')}
          fixedValue={terminal?.code}
        />
        <TextField name="name" label={t('terminals.name')} autoFocus={terminal !== undefined} />
        <StatusField />
        <FormDialogFooter
          isPending={createTerminal.isPending || updateTerminal.isPending}
          submitLabel={terminal ? undefined : t('actions.create')}
        />
      </form>
    </Form>
  );
}
