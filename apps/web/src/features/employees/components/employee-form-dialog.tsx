import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  createEmployeeBodySchema,
  employeeIdSchema,
  optionalNameSchema,
  updateEmployeeBodySchema,
  type Employee,
} from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { EmailField, StatusField } from '@/components/forms/account-fields';
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
import { useNotifyDone } from '@/lib/notify';
import { useCreateEmployee } from '../api/create-employee';
import { useUpdateEmployee } from '../api/update-employee';

export type EmployeeDialogState = { mode: 'create' } | { mode: 'edit'; employee: Employee } | null;

/** Spec 8's codes of a taken staff number or email, on the field they name. */
const CODE_FIELDS = {
  EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY: 'employee_id',
  EMAIL_EXISTING_IN_THIS_COMPANY: 'email',
  EMAIL_EXISTING_IN_OTHER_COMPANY: 'email',
} as const;

/** POST /employees from the modal: an empty name is left out (the company comes from the session). */
export const createEmployeeFormSchema = createEmployeeBodySchema
  .omit({ company_id: true, monthly_tokens: true })
  .extend({
    name: optionalNameSchema.transform((value) => value || undefined),
  });

/** PUT /employees/{id} from the modal: every field sent; an empty name or email clears it. */
export const updateEmployeeFormSchema = updateEmployeeBodySchema
  .omit({ monthly_tokens: true })
  .extend({ employee_id: employeeIdSchema });

/** The employee modal: employee ID (2–50), name, email (optional, valid), status. */
export function EmployeeFormDialog({
  state,
  onClose,
}: {
  state: EmployeeDialogState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={state !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {state?.mode === 'edit' ? t('employees.edit_title') : t('employees.create_title')}
          </DialogTitle>
          <DialogDescription>
            {state?.mode === 'edit'
              ? t('employees.edit_description', {
                  name: state.employee.name || state.employee.employee_id,
                })
              : t('employees.create_description')}
          </DialogDescription>
        </DialogHeader>
        {state && (
          <EmployeeForm
            key={state.mode === 'edit' ? state.employee.id : 'create'}
            employee={state.mode === 'edit' ? state.employee : undefined}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The four fields: employee ID, name, and the shared email and status fields. */
function EmployeeFields() {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        name="employee_id"
        label={t('employees.employee_id')}
        description={t('employees.employee_id_hint')}
        autoFocus
      />
      <TextField name="name" label={t('employees.name')} />
      <EmailField label={t('employees.email')} />
      <StatusField />
    </>
  );
}

type EmployeeFormValues = z.input<typeof createEmployeeFormSchema>;

/** One form for creating and editing an employee (issue 19 item 6). */
function EmployeeForm({ employee, onDone }: { employee?: Employee; onDone: () => void }) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const createEmployee = useCreateEmployee();
  const updateEmployee = useUpdateEmployee();
  const form = useForm<EmployeeFormValues, unknown, z.output<typeof createEmployeeFormSchema>>({
    resolver: formResolver<EmployeeFormValues, z.output<typeof createEmployeeFormSchema>>(
      employee ? updateEmployeeFormSchema : createEmployeeFormSchema,
    ),
    defaultValues: {
      employee_id: employee?.employee_id ?? '',
      name: employee?.name ?? '',
      email: employee?.email ?? '',
      status: employee?.status ?? 'active',
    },
  });
  const callbacks = (key: 'toasts.employee_created' | 'toasts.employee_updated') => ({
    onSuccess: (saved: Employee) => {
      notifyDone(t(key, { name: saved.name || saved.employee_id, id: saved.employee_id }));
      onDone();
    },
    onError: (error: unknown) => applyServerErrors(form, error, CODE_FIELDS),
  });
  const onSubmit = form.handleSubmit((values) =>
    employee
      ? updateEmployee.mutate(
          { id: employee.id, body: values as z.output<typeof updateEmployeeFormSchema> },
          callbacks('toasts.employee_updated'),
        )
      : createEmployee.mutate(values, callbacks('toasts.employee_created')),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <EmployeeFields />
        <FormDialogFooter
          isPending={createEmployee.isPending || updateEmployee.isPending}
          submitLabel={employee ? undefined : t('actions.create')}
        />
      </form>
    </Form>
  );
}
