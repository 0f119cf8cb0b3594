import { useTranslation } from 'react-i18next';
import type { SettlementPeriod } from '@app/contract';
import { Tokens } from '@/components/data-table';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';

/** A statement's split by company, with the statement's totals as its last line. */
export function CompanySplitTable({ statement }: { statement: SettlementPeriod }) {
  const { t } = useTranslation();
  if (statement.companies.length === 0) {
    return <p className="text-sm text-muted-foreground">{t('settlements.no_activity')}</p>;
  }
  const right = 'text-right tabular-nums';
  return (
    <Table aria-label={t('settlements.by_company')}>
      <TableHeader>
        <TableRow>
          <TableHead>{t('settlements.company')}</TableHead>
          <TableHead className="text-right">{t('settlements.orders')}</TableHead>
          <TableHead className="text-right">{t('settlements.refunds')}</TableHead>
          <TableHead className="text-right">{t('settlements.purchased')}</TableHead>
          <TableHead className="text-right">{t('settlements.refunded')}</TableHead>
          <TableHead className="text-right">{t('settlements.net')}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {statement.companies.map((c) => (
          <TableRow key={c.company_id} data-company={c.company_code}>
            <TableCell>
              {c.company_name} <span className="text-muted-foreground">({c.company_code})</span>
            </TableCell>
            <TableCell className={right}>{c.orders}</TableCell>
            <TableCell className={right}>{c.refunds}</TableCell>
            <TableCell className={right}>
              <Tokens value={c.purchased_tokens} />
            </TableCell>
            <TableCell className={right}>
              <Tokens value={c.refunded_tokens} />
            </TableCell>
            <TableCell className={`${right} font-medium`}>
              <Tokens value={c.net_tokens} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableCell className="font-medium">{t('settlements.total')}</TableCell>
          <TableCell className={right}>{statement.orders}</TableCell>
          <TableCell className={right}>{statement.refunds}</TableCell>
          <TableCell className={right}>
            <Tokens value={statement.purchased_tokens} />
          </TableCell>
          <TableCell className={right}>
            <Tokens value={statement.refunded_tokens} />
          </TableCell>
          <TableCell className={`${right} font-semibold`}>
            <Tokens value={statement.net_tokens} />
          </TableCell>
        </TableRow>
      </TableFooter>
    </Table>
  );
}
