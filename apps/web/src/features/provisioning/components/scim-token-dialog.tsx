import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createScimTokenBodySchema, type ScimTokenCreated } from '@app/contract';
import { OneTimeSecretDialog } from '@/components/feedback/one-time-secret-dialog';
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
import { useCreateScimToken } from '../api/scim';

interface TokenFormValues {
  description: string;
}

/** Makes a SCIM token with a description; the created token goes to `onCreated`, shown once. */
export function ScimTokenFormDialog({
  companyId,
  isOpen,
  onClose,
  onCreated,
}: {
  companyId: number;
  isOpen: boolean;
  onClose: () => void;
  onCreated: (token: ScimTokenCreated) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={isOpen} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('provisioning.create_title')}</DialogTitle>
          <DialogDescription>{t('provisioning.create_description')}</DialogDescription>
        </DialogHeader>
        {isOpen && <TokenForm companyId={companyId} onCreated={onCreated} />}
      </DialogContent>
    </Dialog>
  );
}

function TokenForm({
  companyId,
  onCreated,
}: {
  companyId: number;
  onCreated: (token: ScimTokenCreated) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateScimToken(companyId);
  const form = useForm<TokenFormValues, unknown, TokenFormValues>({
    resolver: formResolver<TokenFormValues>(createScimTokenBodySchema),
    defaultValues: { description: '' },
  });
  const onSubmit = form.handleSubmit(({ description }) => {
    create.mutate(
      { description },
      {
        onSuccess: (created) => {
          create.reset();
          onCreated(created);
        },
        onError: (error) => applyServerErrors(form, error, {}),
      },
    );
  });
  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <TextField
          name="description"
          label={t('provisioning.token_description')}
          description={t('provisioning.token_description_hint')}
          autoFocus
        />
        <FormDialogFooter isPending={create.isPending} submitLabel={t('actions.create')} />
      </form>
    </Form>
  );
}

/** The token, the one time the server sends it: a warning and a copy button. */
export function ScimTokenSecretDialog({
  token,
  onClose,
}: {
  token: ScimTokenCreated | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const secret = token && {
    title: t('provisioning.token_created_title'),
    description: t('provisioning.token_created_description', { description: token.description }),
    warning: t('provisioning.token_warning'),
    label: t('provisioning.token'),
    value: token.token,
    saved: t('provisioning.token_saved'),
    breakDescription: true,
  };
  return <OneTimeSecretDialog secret={secret} onClose={onClose} />;
}
