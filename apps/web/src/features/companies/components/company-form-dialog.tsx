import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  createCompanyBodySchema,
  initialTokenSchema,
  resetDaySchema,
  updateCompanyBodySchema,
  type Company,
  type Status,
} from '@app/contract';
import { StatusField } from '@/components/forms/account-fields';
import { CodeField } from '@/components/forms/code-field';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { TextField } from '@/components/forms/text-field';
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
import { formResolver } from '@/lib/form-resolver';
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
        {state && (
          <CompanyForm
            key={state.mode === 'edit' ? state.company.id : 'create'}
            company={state.mode === 'edit' ? state.company : undefined}
            onCreated={setCreated}
            onDone={onClose}
          />
        )}
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

/** What the one form holds: the numbers as typed. Creating sends no next-month amount. */
interface CompanyFormValues {
  code: string;
  name: string;
  monthly_reset_day: string;
  init_token: string;
  init_token_next_month: string;
  employee_monthly_tokens: string;
  status: Status;
}
type CreateOutput = z.output<typeof createCompanyFormSchema>;
type EditOutput = z.output<typeof editCompanyFormSchema>;

/**
 * One form for creating (without `company`) and editing a company (issue 19 item 6): every field
 * of spec 5 on create; on edit the code is fixed and next month's allocation may be set.
 */
function CompanyForm({
  company,
  onCreated,
  onDone,
}: {
  company?: Company;
  onCreated: (company: Company) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const createCompany = useCreateCompany();
  const updateCompany = useUpdateCompany();
  const form = useForm<CompanyFormValues, unknown, CreateOutput | EditOutput>({
    resolver: formResolver<CompanyFormValues, CreateOutput | EditOutput>(
      company ? editCompanyFormSchema : createCompanyFormSchema,
    ),
    defaultValues: {
      code: company?.code ?? '',
      name: company?.name ?? '',
      monthly_reset_day: company ? numberText(company.monthly_reset_day) : '1',
      init_token: company ? numberText(company.init_token) : '0',
      init_token_next_month: numberText(company?.init_token_next_month),
      employee_monthly_tokens: company ? numberText(company.employee_monthly_tokens) : '0',
      status: company?.status ?? 'active',
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    if (company) {
      updateCompany.mutate(
        { id: company.id, body: values as EditOutput },
        {
          onSuccess: () => {
            notifyDone(t('toasts.company_updated', { name: company.name }));
            onDone();
          },
          onError: (error) => applyServerErrors(form, error),
        },
      );
      return;
    }
    createCompany.mutate(values as CreateOutput, {
      onSuccess: (created) => {
        notifyDone(t('toasts.company_created', { name: created.name }));
        onCreated(created);
      },
      onError: (error) =>
        applyServerErrors(form, error, {
          COMPANY_CODE_ALREADY_EXISTS: 'code',
          DATA_EXISTS: 'code',
        }),
    });
  });

  const employeeMonthlyTokens = (
    <NumberField
      name="employee_monthly_tokens"
      label={t('companies.employee_monthly_tokens')}
      description={t('companies.employee_monthly_tokens_hint')}
      min={0}
    />
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <CodeField
            label={t('companies.code')}
            hint={t('forms.code_hint')}
            fixedValue={company?.code}
            autoFocus
          />
          <TextField name="name" label={t('companies.name')} autoFocus={company !== undefined} />
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
            description={company ? undefined : t('companies.init_token_hint')}
            min={0}
          />
          {company ? (
            <NumberField
              name="init_token_next_month"
              label={t('companies.init_token_next_month')}
              description={t('companies.init_token_next_month_hint')}
              min={0}
            />
          ) : (
            employeeMonthlyTokens
          )}
        </div>
        {company && employeeMonthlyTokens}
        <StatusField />
        <FormDialogFooter
          isPending={createCompany.isPending || updateCompany.isPending}
          submitLabel={company ? undefined : t('actions.create')}
        />
      </form>
    </Form>
  );
}
