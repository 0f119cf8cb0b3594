import { useState, type ReactNode } from 'react';
import { Coins, FileBarChart, Pencil, Power, PowerOff, UserCog } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { can } from '@app/contract';
import { StatusBadge, Tokens } from '@/components/data-table';
import {
  BackLink,
  DetailError,
  DetailSection,
  DetailSkeleton,
  FigureCards,
} from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { formatDayLong, formatIsoDate, formatMonthWords } from '@/lib/format';
import { toggleStatusWithConfirm } from '@/lib/status-actions';
import { useCompanyDetails } from '../api/get-company';
import { useUpdateCompanyStatus } from '../api/update-company-status';
import { CompanyAdminsDialog } from '../components/company-admins-dialog';
import { CompanyFormDialog, type CompanyDialogState } from '../components/company-form-dialog';
import { IssueTokensDialog } from '../components/issue-tokens-dialog';
import { SpendingRulesSection } from '../components/spending-rules-section';

/**
 * A company's page (/companies/:id, admin and Group HR; issue 19): its wallet (balance, token
 * month, monthly allocation, next reset in words), its spending rules (DESIGN 7), its ledger (given
 * by the route) and its actions, the same as the list's row menu.
 */
export function CompanyDetailPage({ companyId, ledger }: { companyId: string; ledger: ReactNode }) {
  const { t, i18n } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const canIssueTokens = can(role, 'tokens.issue_company');
  const company = useCompanyDetails(companyId, { silentError: true });
  const { mutate: changeStatus } = useUpdateCompanyStatus();
  const [dialog, setDialog] = useState<CompanyDialogState>(null);
  const [isIssuing, setIssuing] = useState(false);
  const [adminsView, setAdminsView] = useState<'list' | 'create' | null>(null);
  const back = <BackLink to={paths.companies.getHref()} label={t('nav.companies')} />;

  if (company.isPending) {
    return (
      <>
        {back}
        <DetailSkeleton />
      </>
    );
  }
  if (company.isError) {
    return (
      <>
        {back}
        <DetailError error={company.error} onRetry={() => void company.refetch()} />
      </>
    );
  }
  const data = company.data;
  const isActive = data.status === 'active';
  const nextReset = formatIsoDate(data.next_reset_at);

  return (
    <>
      {back}
      <PageHeader
        title={data.name}
        description={
          <span className="flex items-center gap-2">
            <span className="font-mono">{data.code}</span>
            <StatusBadge status={data.status} />
          </span>
        }
        actions={
          <>
            <Button variant="outline" onClick={() => setDialog({ mode: 'edit', company: data })}>
              <Pencil aria-hidden />
              {t('actions.edit')}
            </Button>
            <Button variant="outline" onClick={() => setAdminsView('list')}>
              <UserCog aria-hidden />
              {t('company_admins.title')}
            </Button>
            <Button variant="outline" asChild>
              <Link to={paths.summaryReportCompany.getHref(data.id)}>
                <FileBarChart aria-hidden />
                {t('companies.summary_report')}
              </Link>
            </Button>
            <Button
              variant={isActive ? 'outline' : 'default'}
              onClick={() =>
                void toggleStatusWithConfirm(data.name, data.status, (status, callbacks) =>
                  changeStatus({ id: data.id, status }, callbacks),
                )
              }
            >
              {isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
              {isActive ? t('actions.deactivate') : t('actions.activate')}
            </Button>
            {canIssueTokens && (
              <Button disabled={!isActive} onClick={() => setIssuing(true)}>
                <Coins aria-hidden />
                {t('companies.issue')}
              </Button>
            )}
          </>
        }
      />
      <div className="flex flex-col gap-6">
        <FigureCards
          label={t('detail.wallet')}
          figures={[
            {
              id: 'balance',
              label: t('companies.current_balance'),
              value: <Tokens value={data.token_balance} />,
            },
            {
              id: 'token_month',
              label: t('detail.token_month'),
              value: formatMonthWords(data.token_month, i18n.language),
            },
            {
              id: 'init_token',
              label: t('companies.init_token'),
              value: <Tokens value={data.init_token} />,
            },
            {
              id: 'next_reset',
              label: t('companies.next_reset'),
              value: (
                <time dateTime={nextReset} data-testid="next-reset-words">
                  {formatDayLong(nextReset, i18n.language)}
                </time>
              ),
            },
          ]}
        />
        {can(role, 'spending_rules.read') && <SpendingRulesSection companyId={data.id} />}
        <DetailSection title={t('detail.ledger')}>{ledger}</DetailSection>
      </div>
      <CompanyFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        onAddAdmin={() => {
          setDialog(null);
          setAdminsView('create');
        }}
      />
      <IssueTokensDialog company={isIssuing ? data : null} onClose={() => setIssuing(false)} />
      <CompanyAdminsDialog
        key={adminsView ?? 'closed'}
        company={adminsView ? data : null}
        startWith={adminsView ?? undefined}
        onClose={() => setAdminsView(null)}
      />
    </>
  );
}
