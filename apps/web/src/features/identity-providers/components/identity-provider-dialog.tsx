import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  IDENTITY_PROVIDER_USER_TYPES,
  identityProviderInputSchema,
  ROLE_LABELS,
  type IdentityProvider,
  type IdentityProviderInput,
} from '@app/contract';
import { FormDialogFooter } from '@/components/forms/form-dialog-footer';
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
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { translateMessage } from '@/lib/messages';
import { useCompanyChoices } from '../api/identity-providers';

interface ProviderFormValues {
  name: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  email_domains: string;
  default_type: string;
  company_id: string;
}

const FIELDS = [
  'name',
  'issuer',
  'client_id',
  'client_secret',
  'email_domains',
  'default_type',
  'company_id',
] as const;

/**
 * Adds or edits an identity provider (decision 0086). The client secret is write-only: a new
 * provider needs one; an edited one shows "set" and keeps its secret unless a new one is typed.
 */
export function IdentityProviderDialog({
  editing,
  isOpen,
  isPending,
  onClose,
  onSave,
}: {
  /** The provider edited; null: a new one. */
  editing: IdentityProvider | null;
  isOpen: boolean;
  isPending: boolean;
  onClose: () => void;
  onSave: (input: IdentityProviderInput) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={isOpen} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {t(editing ? 'identity_providers.edit_title' : 'identity_providers.add_title')}
          </DialogTitle>
          <DialogDescription>{t('identity_providers.form_description')}</DialogDescription>
        </DialogHeader>
        {isOpen && <ProviderForm editing={editing} isPending={isPending} onSave={onSave} />}
      </DialogContent>
    </Dialog>
  );
}

function ProviderForm({
  editing,
  isPending,
  onSave,
}: {
  editing: IdentityProvider | null;
  isPending: boolean;
  onSave: (input: IdentityProviderInput) => void;
}) {
  const { t } = useTranslation();
  const companies = useCompanyChoices();
  const form = useForm<ProviderFormValues>({
    defaultValues: {
      name: editing?.name ?? '',
      issuer: editing?.issuer ?? 'https://',
      client_id: editing?.client_id ?? '',
      client_secret: '',
      email_domains: editing?.email_domains.join(', ') ?? '',
      default_type: editing?.default_type ?? 'super_hr',
      company_id: editing?.company_id == null ? '' : String(editing.company_id),
    },
  });
  const defaultType = useWatch({ control: form.control, name: 'default_type' });

  const onSubmit = form.handleSubmit((values) => {
    const input = {
      ...(editing && { id: editing.id }),
      name: values.name,
      issuer: values.issuer,
      client_id: values.client_id,
      ...(values.client_secret !== '' && { client_secret: values.client_secret }),
      email_domains: values.email_domains
        .split(/[\s,;]+/)
        .map((domain) => domain.trim())
        .filter(Boolean),
      default_type: values.default_type,
      company_id:
        values.default_type === 'company_admin' && values.company_id !== ''
          ? Number(values.company_id)
          : null,
    };
    const parsed = identityProviderInputSchema.safeParse(input);
    if (!parsed.success) {
      let focused = false;
      for (const issue of parsed.error.issues) {
        const field = FIELDS.find((name) => name === issue.path[0]);
        if (!field) continue;
        form.setError(
          field,
          { message: translateMessage(issue.message, t) },
          { shouldFocus: !focused },
        );
        focused = true;
      }
      return;
    }
    onSave(parsed.data);
  });

  return (
    <Form {...form}>
      <form noValidate className="grid gap-4" onSubmit={onSubmit}>
        <TextField name="name" label={t('identity_providers.name')} autoFocus />
        <TextField
          name="issuer"
          label={t('identity_providers.issuer')}
          description={t('identity_providers.issuer_hint')}
        />
        <TextField name="client_id" label={t('identity_providers.client_id')} />
        <FormField
          name="client_secret"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('identity_providers.client_secret')}</FormLabel>
              <FormControl>
                <Input
                  type="password"
                  autoComplete="new-password"
                  placeholder={editing ? t('identity_providers.secret_set') : ''}
                  {...field}
                />
              </FormControl>
              <FormDescription>
                {t(
                  editing
                    ? 'identity_providers.secret_keep_hint'
                    : 'identity_providers.secret_new_hint',
                )}
              </FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        <TextField
          name="email_domains"
          label={t('identity_providers.email_domains')}
          description={t('identity_providers.email_domains_hint')}
        />
        <FormField
          name="default_type"
          render={({ field }) => (
            <FormItem>
              <FormLabel>{t('identity_providers.default_type')}</FormLabel>
              <FormControl>
                <select className="h-9 rounded-md border bg-transparent px-3 text-sm" {...field}>
                  {IDENTITY_PROVIDER_USER_TYPES.map((type) => (
                    <option key={type} value={type}>
                      {t(`identity_providers.types.${type}`, {
                        defaultValue: ROLE_LABELS[type].en,
                      })}
                    </option>
                  ))}
                </select>
              </FormControl>
              <FormDescription>{t('identity_providers.default_type_hint')}</FormDescription>
              <FormMessage />
            </FormItem>
          )}
        />
        {defaultType === 'company_admin' && (
          <FormField
            name="company_id"
            render={({ field }) => (
              <FormItem>
                <FormLabel>{t('identity_providers.company')}</FormLabel>
                <FormControl>
                  <select className="h-9 rounded-md border bg-transparent px-3 text-sm" {...field}>
                    <option value="">{t('identity_providers.choose_company')}</option>
                    {(companies.data ?? []).map((company) => (
                      <option key={company.id} value={String(company.id)}>
                        {company.name}
                      </option>
                    ))}
                  </select>
                </FormControl>
                <FormMessage />
              </FormItem>
            )}
          />
        )}
        <FormDialogFooter
          isPending={isPending}
          submitLabel={t(editing ? 'actions.save' : 'actions.create')}
        />
      </form>
    </Form>
  );
}
