import { useState } from 'react';
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { IdentityProvider, IdentityProviderInput } from '@app/contract';
import { DetailError } from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { confirmAlert } from '@/lib/alert-store';
import { asInput, useIdentityProviders, usePutIdentityProviders } from '../api/identity-providers';
import { IdentityProviderDialog } from '../components/identity-provider-dialog';

/**
 * Identity providers (/identity-providers; the Super Admin's; decision 0086): the OIDC providers
 * back-office users sign in with, by email domain. Add, edit (the secret write-only, shown as
 * "set"), remove behind a confirmation.
 */
export function IdentityProvidersPage() {
  const { t } = useTranslation();
  const providers = useIdentityProviders();
  const save = usePutIdentityProviders();
  const [dialog, setDialog] = useState<{ editing: IdentityProvider | null } | null>(null);
  const list = providers.data ?? [];

  const saveList = (next: IdentityProviderInput[], onDone?: () => void) =>
    save.mutate(
      { providers: next },
      {
        onSuccess: () => {
          toast.success(t('toasts.updated'));
          onDone?.();
        },
      },
    );

  const onSave = (input: IdentityProviderInput) => {
    const next =
      input.id === undefined
        ? [...list.map(asInput), input]
        : list.map((p) => (p.id === input.id ? input : asInput(p)));
    saveList(next, () => setDialog(null));
  };

  const onRemove = async (provider: IdentityProvider) => {
    const confirmed = await confirmAlert({
      id: `remove-identity-provider-${provider.id}`,
      titleKey: 'identity_providers.remove_title',
      messageKey: 'identity_providers.remove_message',
      values: { name: provider.name },
      confirmKey: 'identity_providers.remove',
      cancelKey: 'actions.cancel',
      destructive: true,
    });
    if (!confirmed) return;
    saveList(list.filter((p) => p.id !== provider.id).map(asInput));
  };

  return (
    <>
      <PageHeader
        title={t('nav.identity_providers')}
        description={t('identity_providers.description')}
        actions={
          <Button onClick={() => setDialog({ editing: null })}>
            <Plus aria-hidden />
            {t('identity_providers.add')}
          </Button>
        }
      />
      <Card>
        <CardContent>
          {providers.isError ? (
            <DetailError error={providers.error} onRetry={() => void providers.refetch()} />
          ) : providers.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : (
            <Table>
              <TableCaption className="sr-only">{t('nav.identity_providers')}</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('identity_providers.name')}</TableHead>
                  <TableHead>{t('identity_providers.email_domains')}</TableHead>
                  <TableHead>{t('identity_providers.issuer')}</TableHead>
                  <TableHead>{t('identity_providers.default_type')}</TableHead>
                  <TableHead>{t('identity_providers.client_secret')}</TableHead>
                  <TableHead className="sr-only">{t('identity_providers.actions')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {list.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={6} className="text-center text-muted-foreground">
                      {t('identity_providers.empty')}
                    </TableCell>
                  </TableRow>
                )}
                {list.map((provider) => (
                  <TableRow key={provider.id}>
                    <TableCell className="font-medium">{provider.name}</TableCell>
                    <TableCell>{provider.email_domains.join(', ')}</TableCell>
                    <TableCell className="max-w-64 truncate font-mono text-xs">
                      {provider.issuer}
                    </TableCell>
                    <TableCell>{t(`identity_providers.types.${provider.default_type}`)}</TableCell>
                    <TableCell>
                      <Badge variant="secondary">
                        {t(
                          provider.client_secret_set
                            ? 'identity_providers.secret_set'
                            : 'identity_providers.secret_missing',
                        )}
                      </Badge>
                    </TableCell>
                    <TableCell className="text-right">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t('identity_providers.edit_named', { name: provider.name })}
                        onClick={() => setDialog({ editing: provider })}
                      >
                        <Pencil aria-hidden />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={t('identity_providers.remove_named', { name: provider.name })}
                        onClick={() => void onRemove(provider)}
                      >
                        <Trash2 aria-hidden />
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <IdentityProviderDialog
        editing={dialog?.editing ?? null}
        isOpen={dialog !== null}
        isPending={save.isPending}
        onClose={() => setDialog(null)}
        onSave={onSave}
      />
    </>
  );
}
