import { useMemo } from 'react';
import { useMutation } from '@tanstack/react-query';
import { FileText, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { DataTable, DataTableExportButton, useLocalPaging } from '@/components/data-table';
import {
  BackLink,
  DetailError,
  DetailSection,
  DetailSkeleton,
} from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { dateLanguage } from '@/lib/format';
import { downloadSettlementPdf, exportSettlementStatement } from '../api/export-settlements';
import { useSettlementStatement } from '../api/get-settlement-statement';
import { CompanySplitTable } from '../components/company-split-table';
import { PeriodStatusBadge } from '../components/period-status-badge';
import { periodLabel } from '../components/period-label';
import { SettlementFigures } from '../components/settlement-figures';
import { statementOrderColumns } from '../components/statement-order-columns';

/** The statement's PDF in the screen's language. */
function PdfButton({ merchantId, periodStart }: { merchantId: number; periodStart: string }) {
  const { t, i18n } = useTranslation();
  const pdf = useMutation({
    mutationFn: () => downloadSettlementPdf(merchantId, periodStart, dateLanguage(i18n.language)),
  });
  return (
    <Button
      variant="outline"
      size="sm"
      className="h-8"
      disabled={pdf.isPending}
      onClick={() => pdf.mutate()}
    >
      {pdf.isPending ? (
        <LoaderCircle className="animate-spin" aria-hidden />
      ) : (
        <FileText aria-hidden />
      )}
      {t('settlements.download_pdf')}
    </Button>
  );
}

/**
 * A statement (/settlements/:merchantId/:periodStart, decision 0040): one merchant's half-month,
 * its totals, the split by company and every order (paged by the server), as CSV or PDF.
 */
export function SettlementStatementPage({
  merchantId,
  periodStart,
}: {
  merchantId: number;
  periodStart: string;
}) {
  const { t } = useTranslation();
  const paging = useLocalPaging();
  const head = useSettlementStatement(merchantId, periodStart);
  const page = useSettlementStatement(merchantId, periodStart, paging.page, paging.pageSize);
  const columns = useMemo(() => statementOrderColumns(t), [t]);
  const orders = {
    ...page,
    data: page.data && { data: page.data.data.orders, total: page.data.total },
  };
  const back = <BackLink to={paths.settlements.getHref()} label={t('nav.settlements')} />;

  if (head.isPending) {
    return (
      <>
        {back}
        <DetailSkeleton />
      </>
    );
  }
  if (head.isError) {
    return (
      <>
        {back}
        <DetailError
          error={head.error}
          title={t('settlements.load_failed')}
          onRetry={() => void head.refetch()}
        />
      </>
    );
  }
  const statement = head.data.data.statement;

  return (
    <>
      {back}
      <PageHeader
        title={t('settlements.statement_title', {
          merchant: `${statement.merchant_name} (${statement.merchant_code})`,
        })}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span>{periodLabel(statement)}</span>
            <PeriodStatusBadge status={statement.status} />
          </span>
        }
        actions={
          <>
            <DataTableExportButton
              onExport={() => exportSettlementStatement(merchantId, periodStart)}
            />
            <PdfButton merchantId={merchantId} periodStart={periodStart} />
          </>
        }
      />
      <div className="flex flex-col gap-8">
        <SettlementFigures figures={statement} label={t('settlements.statement_totals')} />
        {statement.status === 'open' && (
          <p className="text-sm text-muted-foreground">{t('settlements.open_note')}</p>
        )}
        <DetailSection title={t('settlements.by_company')}>
          <CompanySplitTable statement={statement} />
        </DetailSection>
        <DetailSection title={t('settlements.orders_of_statement')}>
          <p className="text-sm text-muted-foreground">{t('settlements.rule')}</p>
          <DataTable
            label={t('settlements.orders_of_statement')}
            columns={columns}
            query={orders}
            paging={paging}
            tableId="settlement-orders"
            getRowId={(o) => String(o.order_id)}
            emptyMessage={t('settlements.no_activity')}
          />
        </DetailSection>
      </div>
    </>
  );
}
