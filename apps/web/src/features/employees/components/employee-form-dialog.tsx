import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  createEmployeeBodySchema,
  employeeIdSchema,
  updateEmployeeBodySchema,
  type Employee,
} from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
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
    name: z
      .string()
      .trim()
      .max(200, 'v.invalid')
      .transform((value) => value || undefined),
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
        {state?.mode === 'create' && <CreateEmployeeForm onDone={onClose} />}
        {state?.mode === 'edit' && <EditEmployeeForm employee={state.employee} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** The four fields, the same on both forms. */
function EmployeeFields() {
  const { t } = useTranslation();
  return (
    <>
      <FormField
        name="employee_id"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('employees.employee_id')}</FormLabel>
            <FormControl>
              <Input autoComplete="off" autoFocus {...field} />
            </FormControl>
            <FormDescription>{t('employees.employee_id_hint')}</FormDescription>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="name"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('employees.name')}</FormLabel>
            <FormControl>
              <Input autoComplete="off" {...field} />
            </FormControl>
            <FormMessage />
          </FormItem>
        )}
      />
      <FormField
        name="email"
        render={({ field }) => (
          <FormItem>
            <FormLabel>{t('employees.email')}</FormLabel>
            <FormControl>
              <Input type="email" autoComplete="off" {...field} />
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

function CreateEmployeeForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const createEmployee = useCreateEmployee();
  const form = useForm<
    z.input<typeof createEmployeeFormSchema>,
    unknown,
    z.output<typeof createEmployeeFormSchema>
  >({
    resolver: zodResolver(createEmployeeFormSchema),
    defaultValues: { employee_id: '', name: '', email: '', status: 'active' },
  });
  const onSubmit = form.handleSubmit((values) =>
    createEmployee.mutate(values, {
      onSuccess: () => {
        toast.success(t('toasts.created'));
        onDone();
      },
      onError: (error) => applyServerErrors(form, error, CODE_FIELDS),
    }),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <EmployeeFields />
        <FormDialogFooter isPending={createEmployee.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

function EditEmployeeForm({ employee, onDone }: { employee: Employee; onDone: () => void }) {
  const { t } = useTranslation();
  const updateEmployee = useUpdateEmployee();
  const form = useForm<
    z.input<typeof updateEmployeeFormSchema>,
    unknown,
    z.output<typeof updateEmployeeFormSchema>
  >({
    resolver: zodResolver(updateEmployeeFormSchema),
    defaultValues: {
      employee_id: employee.employee_id,
      name: employee.name ?? '',
      email: employee.email ?? '',
      status: employee.status,
    },
  });
  const onSubmit = form.handleSubmit((body) =>
    updateEmployee.mutate(
      { id: employee.id, body },
      {
        onSuccess: () => {
          toast.success(t('toasts.updated'));
          onDone();
        },
        onError: (error) => applyServerErrors(form, error, CODE_FIELDS),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <EmployeeFields />
        <FormDialogFooter isPending={updateEmployee.isPending} />
      </form>
    </Form>
  );
}
