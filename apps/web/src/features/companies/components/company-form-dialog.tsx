import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  createCompanyBodySchema,
  initialTokenSchema,
  resetDaySchema,
  updateCompanyBodySchema,
  type Company,
} from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { ReadOnlyField } from '@/components/forms/read-only-field';
import { StatusSelect } from '@/components/forms/status-select';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
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
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { applyServerErrors, nullableNumberField, numberField, numberText } from '@/lib/forms';
import { useNotifyDone } from '@/lib/notify';
import { useCreateCompany } from '../api/create-company';
import { useUpdateCompany } from '../api/update-company';

/** The contract's create body, with the numbers typed into boxes. */
export const createCompanyFormSchema = createCompanyBodySchema.extend({
  monthly_reset_day: numberField(resetDaySchema),
  init_token: numberField(initialTokenSchema),
  employee_monthly_tokens: numberField(initialTokenSchema),
});

/** The contract's edit body (PUT /companies/{id}); the code is fixed. */
export const editCompanyFormSchema = updateCompanyBodySchema.extend({
  monthly_reset_day: numberField(resetDaySchema),
  init_token: numberField(initialTokenSchema),
  init_token_next_month: nullableNumberField(initialTokenSchema),
  employee_monthly_tokens: numberField(initialTokenSchema),
});

export type CompanyDialogState = { mode: 'create' } | { mode: 'edit'; company: Company } | null;

/** The company modal: create with every field of spec 5, or edit the plan and status. */
export function CompanyFormDialog({
  state,
  onClose,
  onAddAdmin,
}: {
  state: CompanyDialogState;
  onClose: () => void;
  /** The next step offered once a company is created: add its admin. */
  onAddAdmin: (company: Company) => void;
}) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<Company | null>(null);
  // A new opening starts at the form again.
  if (state === null && created !== null) setCreated(null);
  if (created) {
    return (
      <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('companies.created_title', { name: created.name })}</DialogTitle>
            <DialogDescription>{t('companies.created_next')}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                {t('companies.created_later')}
              </Button>
            </DialogClose>
            <Button type="button" autoFocus onClick={() => onAddAdmin(created)}>
              {t('companies.created_add_admin')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    );
  }
  return (
    <Dialog open={state !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>
            {state?.mode === 'edit' ? t('companies.edit_title') : t('companies.create_title')}
          </DialogTitle>
          <DialogDescription>
            {state?.mode === 'edit'
              ? t('companies.edit_description', { name: state.company.name })
              : t('companies.create_description')}
          </DialogDescription>
        </DialogHeader>
        {state?.mode === 'create' && <CreateCompanyForm onCreated={setCreated} />}
        {state?.mode === 'edit' && <EditCompanyForm company={state.company} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** A whole-number box of the surrounding form (its value is the text typed). */
function NumberField({
  name,
  label,
  description,
  min,
  max,
}: {
  name: string;
  label: string;
  description?: ReactNode;
  min?: number;
  max?: number;
}) {
  return (
    <FormField
      name={name}
      render={({ field }) => (
        <FormItem>
          <FormLabel>{label}</FormLabel>
          <FormControl>
            <Input type="number" inputMode="numeric" step={1} min={min} max={max} {...field} />
          </FormControl>
          {description && <FormDescription>{description}</FormDescription>}
          <FormMessage />
        </FormItem>
      )}
    />
  );
}

function CreateCompanyForm({ onCreated }: { onCreated: (company: Company) => void }) {
  const { t } = useTranslation();
  const createCompany = useCreateCompany();
  const notifyDone = useNotifyDone();
  const form = useForm<
    z.input<typeof createCompanyFormSchema>,
    unknown,
    z.output<typeof createCompanyFormSchema>
  >({
    resolver: zodResolver(createCompanyFormSchema),
    defaultValues: {
      code: '',
      name: '',
      monthly_reset_day: '1',
      init_token: '0',
      employee_monthly_tokens: '0',
      status: 'active',
    },
  });

  const onSubmit = form.handleSubmit((values) =>
    createCompany.mutate(values, {
      onSuccess: (company) => {
        notifyDone(t('toasts.company_created', { name: company.name }));
        onCreated(company);
      },
      onError: (error) =>
        applyServerErrors(form, error, {
          COMPANY_CODE_ALREADY_EXISTS: 'code',
          DATA_EXISTS: 'code',
        }),
    }),
  );

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <FormField
            control={form.control}
            name="code"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('companies.code')}</FormLabel>
                <FormControl>
                  <Input autoComplete="off" autoFocus {...field} />
                </FormControl>
                <FormDescription>{t('forms.code_hint')}</FormDescription>
                <FormMessage />
              </FormItem>
            )}
          />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('companies.name')}</FormLabel>
                <FormControl>
                  <Input autoComplete="off" {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <NumberField
          name="monthly_reset_day"
          label={t('companies.reset_day')}
          description={t('companies.reset_day_hint')}
          min={1}
          max={31}
        />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <NumberField
            name="init_token"
            label={t('companies.init_token')}
            description={t('companies.init_token_hint')}
            min={0}
          />
          <NumberField
            name="employee_monthly_tokens"
            label={t('companies.employee_monthly_tokens')}
            description={t('companies.employee_monthly_tokens_hint')}
            min={0}
          />
        </div>
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
        <FormDialogFooter isPending={createCompany.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

function EditCompanyForm({ company, onDone }: { company: Company; onDone: () => void }) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const updateCompany = useUpdateCompany();
  const form = useForm<
    z.input<typeof editCompanyFormSchema>,
    unknown,
    z.output<typeof editCompanyFormSchema>
  >({
    resolver: zodResolver(editCompanyFormSchema),
    defaultValues: {
      name: company.name,
      monthly_reset_day: numberText(company.monthly_reset_day),
      init_token: numberText(company.init_token),
      init_token_next_month: numberText(company.init_token_next_month),
      employee_monthly_tokens: numberText(company.employee_monthly_tokens),
      status: company.status,
    },
  });

  const onSubmit = form.handleSubmit((body) =>
    updateCompany.mutate(
      { id: company.id, body },
      {
        onSuccess: () => {
          notifyDone(t('toasts.company_updated', { name: company.name }));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error),
      },
    ),
  );

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <ReadOnlyField
            label={t('companies.code')}
            value={company.code}
            description={t('forms.code_fixed')}
          />
          <FormField
            control={form.control}
            name="name"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('companies.name')}</FormLabel>
                <FormControl>
                  <Input autoComplete="off" autoFocus {...field} />
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        </div>
        <NumberField
          name="monthly_reset_day"
          label={t('companies.reset_day')}
          description={t('companies.reset_day_hint')}
          min={1}
          max={31}
        />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <NumberField name="init_token" label={t('companies.init_token')} min={0} />
          <NumberField
            name="init_token_next_month"
            label={t('companies.init_token_next_month')}
            description={t('companies.init_token_next_month_hint')}
            min={0}
          />
        </div>
        <NumberField
          name="employee_monthly_tokens"
          label={t('companies.employee_monthly_tokens')}
          description={t('companies.employee_monthly_tokens_hint')}
          min={0}
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
        <FormDialogFooter isPending={updateCompany.isPending} />
      </form>
    </Form>
  );
}
