import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  createTerminalBodySchema,
  updateTerminalBodySchema,
  type Terminal,
  type TerminalWithKey,
} from '@app/contract';
import type { Option } from '@/components/data-table';
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
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { applyServerErrors } from '@/lib/forms';
import { useCreateTerminal } from '../api/create-terminal';
import { useUpdateTerminal } from '../api/update-terminal';

type FormInput = z.input<typeof createTerminalBodySchema>;
type FormOutput = z.output<typeof createTerminalBodySchema>;

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
        {state?.mode === 'create' && (
          <CreateTerminalForm
            merchantOptions={merchantOptions}
            defaultMerchantId={state.merchantId}
            onCreated={onCreated}
          />
        )}
        {state?.mode === 'edit' && (
          <EditTerminalForm
            terminal={state.terminal}
            merchantOptions={merchantOptions}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreateTerminalForm({
  merchantOptions,
  defaultMerchantId,
  onCreated,
}: {
  merchantOptions: Option[];
  defaultMerchantId?: number;
  onCreated: (terminal: TerminalWithKey) => void;
}) {
  const { t } = useTranslation();
  const createTerminal = useCreateTerminal();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(createTerminalBodySchema),
    defaultValues: {
      merchant_id: defaultMerchantId as number,
      code: '',
      name: '',
      status: 'active',
    },
  });
  const onSubmit = form.handleSubmit((values) =>
    createTerminal.mutate(values, {
      onSuccess: (terminal) => {
        createTerminal.reset();
        onCreated(terminal);
      },
      onError: (error) =>
        applyServerErrors(form, error, {
          TERMINAL_CODE_ALREADY_EXISTS: 'code',
          RECORD_NOT_FOUND: 'merchant_id',
        }),
    }),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <FormField
          control={form.control}
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
                  {merchantOptions.map((option) => (
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
        <FormField
          control={form.control}
          name="code"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('terminals.code')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormDescription>{t('terminals.code_hint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('terminals.name')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="status"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('table.status')}</FormLabel>
              <StatusSelect value={field.value} onChange={field.onChange} />
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={createTerminal.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

function EditTerminalForm({
  terminal,
  merchantOptions,
  onDone,
}: {
  terminal: Terminal;
  merchantOptions: Option[];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const updateTerminal = useUpdateTerminal();
  const form = useForm<
    z.input<typeof updateTerminalBodySchema>,
    unknown,
    z.output<typeof updateTerminalBodySchema>
  >({
    resolver: zodResolver(updateTerminalBodySchema),
    defaultValues: { name: terminal.name, status: terminal.status },
  });
  const merchant =
    merchantOptions.find((option) => option.value === String(terminal.merchant_id))?.label ??
    `#${terminal.merchant_id}`;
  const onSubmit = form.handleSubmit((body) =>
    updateTerminal.mutate(
      { id: terminal.id, body },
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
        <ReadOnlyField label={t('terminals.merchant')} value={merchant} />
        <ReadOnlyField
          label={t('terminals.code')}
          value={terminal.code}
          description={t('forms.code_fixed')}
        />
        <FormField
          control={form.control}
          name="name"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('terminals.name')}</FormLabel>
              <FormControl>
                <Input autoComplete="off" autoFocus {...field} />
              </FormControl>
              <FormMessage />
            </FormItem>
          )}
        />
        <FormField
          control={form.control}
          name="status"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('table.status')}</FormLabel>
              <StatusSelect value={field.value} onChange={field.onChange} />
              <FormMessage />
            </FormItem>
          )}
        />
        <FormDialogFooter isPending={updateTerminal.isPending} />
      </form>
    </Form>
  );
}
