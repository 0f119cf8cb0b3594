import { useState } from 'react';
import { Plus, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { can, type SpendingRuleVersion } from '@app/contract';
import { DetailError } from '@/components/layout/detail-layout';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { confirmAlert } from '@/lib/alert-store';
import { useAuthStore } from '@/lib/auth-store';
import { describeRules } from '@/lib/describe-rules';
import { formatDayLong } from '@/lib/format';
import { useSpendingRules } from '../api/get-spending-rules';
import { useWithdrawSpendingRules } from '../api/withdraw-spending-rules';
import { SpendingRulesDialog } from './spending-rules-dialog';

/**
 * A company's spending rules (DESIGN 7) in plain words: the version in force, the scheduled ones
 * (each withdrawable) and the earlier ones, with a button for a new version.
 */
export function SpendingRulesSection({
  companyId,
  isPage = false,
  title,
}: {
  companyId: number;
  /** The heading, when not "Spending rules" (the company's name, under a page's own title). */
  title?: string;
  /** The screen's own content (/spending-rules): its title is the page's heading. */
  isPage?: boolean;
}) {
  const { t } = useTranslation();
  const role = useAuthStore((state) => state.user?.type);
  const canManage = can(role, 'spending_rules.manage');
  const rules = useSpendingRules(companyId);
  const [isEditing, setEditing] = useState(false);
  const titleId = `spending-rules-${companyId}`;

  let body: React.ReactNode;
  if (rules.isPending) {
    body = <Skeleton className="h-24 w-full" />;
  } else if (rules.isError) {
    body = (
      <DetailError
        title={t('spending_rules.section.load_failed')}
        error={rules.error}
        onRetry={() => void rules.refetch()}
      />
    );
  } else {
    const { current, scheduled, history } = rules.data;
    body = (
      <div className="grid gap-4">
        {current === null && scheduled.length === 0 && history.length === 0 ? (
          <p className="rounded-md border p-4 text-sm" data-testid="spending-rules-empty">
            {t('spending_rules.section.empty')}
          </p>
        ) : (
          <>
            <VersionGroup title={t('spending_rules.section.current')} testId="rules-current">
              {current ? (
                <VersionItem version={current} when="since" />
              ) : (
                <li className="px-3 py-2 text-sm">{t('spending_rules.section.empty')}</li>
              )}
            </VersionGroup>
            <VersionGroup title={t('spending_rules.section.scheduled')} testId="rules-scheduled">
              {scheduled.length === 0 ? (
                <li className="px-3 py-2 text-sm text-muted-foreground">
                  {t('spending_rules.section.none_scheduled')}
                </li>
              ) : (
                scheduled.map((version) => (
                  <VersionItem
                    key={version.effective_from}
                    version={version}
                    when="from"
                    companyId={canManage ? companyId : undefined}
                  />
                ))
              )}
            </VersionGroup>
            {history.length > 0 && (
              <VersionGroup title={t('spending_rules.section.history')} testId="rules-history">
                {history.map((version) => (
                  <VersionItem key={version.effective_from} version={version} when="from" />
                ))}
              </VersionGroup>
            )}
          </>
        )}
      </div>
    );
  }
  const latest = rules.data ? (rules.data.scheduled.at(-1) ?? rules.data.current) : null;

  const newVersion = canManage && (
    <Button
      variant={isPage ? 'default' : 'outline'}
      onClick={() => setEditing(true)}
      disabled={!rules.data}
    >
      <Plus aria-hidden />
      {t('spending_rules.section.new_version')}
    </Button>
  );
  const Heading = isPage ? 'h1' : 'h2';

  return (
    <section className="flex flex-col gap-3" aria-labelledby={titleId}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="grid gap-0.5">
          <Heading
            id={titleId}
            className={isPage ? 'text-2xl font-semibold tracking-tight' : 'text-lg font-semibold'}
          >
            {title ?? t('spending_rules.title')}
          </Heading>
          <p className="text-sm text-muted-foreground">{t('spending_rules.description')}</p>
        </div>
        {newVersion}
      </div>
      {body}
      <SpendingRulesDialog
        companyId={companyId}
        open={isEditing}
        latest={latest}
        onClose={() => setEditing(false)}
      />
    </section>
  );
}

function VersionGroup({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
      <ul className="divide-y rounded-md border" data-testid={testId} aria-label={title}>
        {children}
      </ul>
    </div>
  );
}

/** One version: its date, its rules in words, and for a scheduled one a Withdraw. */
function VersionItem({
  version,
  when,
  companyId,
}: {
  version: SpendingRuleVersion;
  when: 'since' | 'from';
  /** Given: the version may be withdrawn (scheduled, and the user manages rules). */
  companyId?: number;
}) {
  const { t, i18n } = useTranslation();
  const withdraw = useWithdrawSpendingRules();
  const date = formatDayLong(version.effective_from, i18n.language);
  const onWithdraw = async () => {
    const confirmed = await confirmAlert({
      id: `withdraw-rules-${version.effective_from}`,
      titleKey: 'spending_rules.section.withdraw_title',
      messageKey: 'spending_rules.section.withdraw_message',
      values: { date },
      confirmKey: 'spending_rules.section.withdraw',
      cancelKey: 'actions.cancel',
      destructive: true,
    });
    if (!confirmed || companyId === undefined) return;
    withdraw.mutate(
      { companyId, effectiveFrom: version.effective_from },
      { onSuccess: () => toast.success(t('spending_rules.section.withdrawn')) },
    );
  };
  return (
    <li className="grid gap-2 px-3 py-2 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid gap-0.5">
        <time dateTime={version.effective_from} className="text-sm font-medium">
          {t(`spending_rules.section.${when}`, { date })}
        </time>
        <span className="text-sm">{describeRules(version, t)}</span>
      </div>
      {companyId !== undefined && (
        <Button
          variant="outline"
          size="sm"
          disabled={withdraw.isPending}
          aria-label={t('spending_rules.section.withdraw_label', { date })}
          onClick={() => void onWithdraw()}
        >
          <Undo2 aria-hidden />
          {t('spending_rules.section.withdraw')}
        </Button>
      )}
    </li>
  );
}
