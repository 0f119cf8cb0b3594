import { useTranslation } from 'react-i18next';
import type { Approval } from '@app/contract';
import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { withThousands } from '@/lib/format';

/**
 * What a request will do, as a table a person can check: the company, and for a distribution who
 * gets how much (staff number and name as when requested), with the total.
 */
export function ApprovalPayloadTable({ approval }: { approval: Approval }) {
  const { t } = useTranslation();
  const { payload } = approval;
  const caption =
    approval.kind === 'top_up'
      ? t('approvals.payload_top_up', { name: payload.company_name })
      : t('approvals.payload_distribution', { name: payload.company_name });
  return (
    <Table data-testid="approval-payload">
      <caption className="mb-2 caption-top text-left text-sm text-muted-foreground">
        {caption}
      </caption>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">
            {approval.kind === 'top_up' ? t('approvals.company') : t('approvals.employee')}
          </TableHead>
          <TableHead scope="col" className="text-right">
            {t('approvals.amount')}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {approval.kind === 'top_up' ? (
          <TableRow>
            <TableCell>{payload.company_name}</TableCell>
            <TableCell className="text-right tabular-nums">
              {withThousands(payload.amount ?? approval.total)}
            </TableCell>
          </TableRow>
        ) : (
          (payload.items ?? []).map((item) => (
            <TableRow key={item.employee_id}>
              <TableCell>
                <span className="font-medium">{item.name ?? item.staff_number}</span>
                {item.name && (
                  <span className="ml-2 text-muted-foreground">{item.staff_number}</span>
                )}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {withThousands(item.amount)}
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableCell className="font-medium">{t('approvals.total')}</TableCell>
          <TableCell className="text-right font-medium tabular-nums" data-testid="approval-total">
            {withThousands(approval.total)}
          </TableCell>
        </TableRow>
      </TableFooter>
    </Table>
  );
}
