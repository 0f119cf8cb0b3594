import { useState } from 'react';
import { Plus } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { ScimRequest, ScimToken, ScimTokenCreated } from '@app/contract';
import { DateTime } from '@/components/data-table';
import { CopyField } from '@/components/forms/copy-field';
import { DetailError } from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { confirmAlert } from '@/lib/alert-store';
import { useAuthStore } from '@/lib/auth-store';
import { useRevokeScimToken, useScimRequests, useScimTokens } from '../api/scim';
import { ScimTokenFormDialog, ScimTokenSecretDialog } from '../components/scim-token-dialog';

/** The address SCIM clients (Okta, Entra ID) are given: this server's /scim/v2. */
export const scimBaseUrl = () => `${window.location.origin}/scim/v2`;

/**
 * Provisioning (/provisioning; company admin; DESIGN 9, decision 0087): the SCIM base URL, the
 * company's SCIM tokens (made with a description and shown once, listed, revoked after a
 * confirmation) and its last 50 SCIM requests with their outcome.
 */
export function ProvisioningPage() {
  const { t } = useTranslation();
  const companyId = useAuthStore((state) => state.user?.company_id) ?? 0;
  const [isAdding, setAdding] = useState(false);
  const [created, setCreated] = useState<ScimTokenCreated | null>(null);
  return (
    <div className="grid gap-6">
      <PageHeader
        title={t('nav.provisioning')}
        description={t('provisioning.description')}
        actions={
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            {t('provisioning.add')}
          </Button>
        }
      />
      <Card>
        <CardHeader>
          <CardTitle>{t('provisioning.connection')}</CardTitle>
        </CardHeader>
        <CardContent>
          <CopyField
            label={t('provisioning.base_url')}
            value={scimBaseUrl()}
            hint={t('provisioning.base_url_hint')}
          />
        </CardContent>
      </Card>
      <TokensCard companyId={companyId} />
      <RequestsCard companyId={companyId} />
      <ScimTokenFormDialog
        companyId={companyId}
        isOpen={isAdding}
        onClose={() => setAdding(false)}
        onCreated={(token) => {
          toast.success(t('toasts.created'));
          setAdding(false);
          setCreated(token);
        }}
      />
      <ScimTokenSecretDialog token={created} onClose={() => setCreated(null)} />
    </div>
  );
}

function Loading() {
  return (
    <div className="grid gap-2">
      <Skeleton className="h-8" />
      <Skeleton className="h-8" />
    </div>
  );
}

function TokensCard({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const tokens = useScimTokens(companyId);
  const { mutate: revoke } = useRevokeScimToken(companyId);
  const onRevoke = async (token: ScimToken) => {
    const confirmed = await confirmAlert({
      id: `revoke-scim-token-${token.id}`,
      titleKey: 'provisioning.revoke_title',
      messageKey: 'provisioning.revoke_message',
      values: { description: token.description },
      confirmKey: 'provisioning.revoke',
      cancelKey: 'actions.cancel',
      destructive: true,
    });
    if (!confirmed) return;
    revoke(token.id, { onSuccess: () => toast.success(t('provisioning.revoked_toast')) });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('provisioning.tokens')}</CardTitle>
      </CardHeader>
      <CardContent>
        {tokens.isPending ? (
          <Loading />
        ) : tokens.isError ? (
          <DetailError error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : tokens.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('provisioning.no_tokens')}</p>
        ) : (
          <Table aria-label={t('provisioning.tokens')}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('provisioning.token_description')}</TableHead>
                <TableHead>{t('provisioning.token_prefix')}</TableHead>
                <TableHead>{t('provisioning.created_at')}</TableHead>
                <TableHead>{t('provisioning.last_used_at')}</TableHead>
                <TableHead>
                  <span className="sr-only">{t('provisioning.actions')}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.data.map((token) => (
                <TableRow key={token.id}>
                  <TableCell>{token.description}</TableCell>
                  <TableCell className="font-mono text-xs">{token.prefix}…</TableCell>
                  <TableCell>
                    <DateTime value={token.created_at} />
                  </TableCell>
                  <TableCell>
                    <DateTime value={token.last_used_at} />
                  </TableCell>
                  <TableCell className="text-right">
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      aria-label={t('provisioning.revoke_label', {
                        description: token.description,
                      })}
                      onClick={() => void onRevoke(token)}
                    >
                      {t('provisioning.revoke')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

const outcomeOf = (status: number) => (status < 400 ? 'succeeded' : 'failed');

function RequestsCard({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const requests = useScimRequests(companyId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('provisioning.requests')}</CardTitle>
      </CardHeader>
      <CardContent>
        {requests.isPending ? (
          <Loading />
        ) : requests.isError ? (
          <DetailError error={requests.error} onRetry={() => void requests.refetch()} />
        ) : requests.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('provisioning.no_requests')}</p>
        ) : (
          <Table aria-label={t('provisioning.requests')}>
            <TableHeader>
              <TableRow>
                <TableHead>{t('provisioning.when')}</TableHead>
                <TableHead>{t('provisioning.method')}</TableHead>
                <TableHead>{t('provisioning.path')}</TableHead>
                <TableHead>{t('provisioning.status')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {requests.data.map((request: ScimRequest) => (
                <TableRow key={request.id}>
                  <TableCell>
                    <DateTime value={request.occurred_at} />
                  </TableCell>
                  <TableCell className="font-mono text-xs">{request.method}</TableCell>
                  <TableCell className="font-mono text-xs break-all">{request.path}</TableCell>
                  <TableCell>
                    <Badge
                      variant={
                        outcomeOf(request.status) === 'succeeded' ? 'secondary' : 'destructive'
                      }
                      data-status={outcomeOf(request.status)}
                    >
                      {request.status} {t(`provisioning.outcomes.${outcomeOf(request.status)}`)}
                    </Badge>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
