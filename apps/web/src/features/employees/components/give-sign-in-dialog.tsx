import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { createEmployeeAccountBodySchema, type Employee } from '@app/contract';
import { PasswordFields, passwordsMatch, UsernameField } from '@/components/forms/account-fields';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
import { ReadOnlyField } from '@/components/forms/read-only-field';
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
import { useCreateEmployeeAccount } from '../api/create-employee-account';
import { employeeName } from './employees-columns';

/** The contract's body, the repeat required here and equal to the password. */
export const giveSignInFormSchema = createEmployeeAccountBodySchema
  .safeExtend({ confirm_password: z.string() })
  .refine((values) => values.password === values.confirm_password, passwordsMatch);

type Values = z.input<typeof giveSignInFormSchema>;

/** Codes that belong to a field of this form; any other (EMPLOYEE_ACCOUNT_EXISTS) is a toast. */
const CODE_FIELDS = {
  USERNAME_EXISTS: 'username',
  USERNAME_ALREADY_EXISTS: 'username',
  PASSWORD_NOT_MATCH: 'confirm_password',
} as const;

/**
 * "Give a sign-in" (decision 0033): a username and a password the company admin hands to the
 * employee, who then signs in to its own wallet. One per employee.
 */
export function GiveSignInDialog({
  employee,
  onClose,
}: {
  employee: Employee | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={employee !== null} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('self_service.give_title')}</DialogTitle>
          <DialogDescription>
            {employee && t('self_service.give_description', { name: employeeName(employee) })}
          </DialogDescription>
        </DialogHeader>
        {employee && <GiveSignInForm key={employee.id} employee={employee} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function GiveSignInForm({ employee, onDone }: { employee: Employee; onDone: () => void }) {
  const { t } = useTranslation();
  const notifyDone = useNotifyDone();
  const create = useCreateEmployeeAccount();
  const form = useForm<Values, unknown, z.output<typeof giveSignInFormSchema>>({
    resolver: formResolver<Values, z.output<typeof giveSignInFormSchema>>(giveSignInFormSchema),
    defaultValues: { username: '', password: '', confirm_password: '' },
  });
  const onSubmit = form.handleSubmit((body) =>
    create.mutate(
      { id: employee.id, body },
      {
        onSuccess: (account) => {
          notifyDone(
            t('self_service.given', { name: employeeName(employee), username: account.username }),
          );
          onDone();
        },
        onError: (error) => applyServerErrors(form, error, CODE_FIELDS),
      },
    ),
  );
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <ReadOnlyField label={t('employees.employee_id')} value={employee.employee_id} />
        <UsernameField />
        <PasswordFields isEdit={false} />
        <FormDialogFooter isPending={create.isPending} submitLabel={t('self_service.give')} />
      </form>
    </Form>
  );
}
