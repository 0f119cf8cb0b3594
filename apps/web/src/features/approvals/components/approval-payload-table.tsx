import { useTranslation } from 'react-i18next';
import type { Approval } from '@app/contract';
import { Badge } from '@/components/ui/badge';
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

/** A payee in one line: its staff number, and its name when it has one. */
export const payeeLabel = (staffNumber: string, name: string | null) =>
  name ? `${staffNumber} ${name}` : staffNumber;

/**
 * What a request will do, as a table a person can check: the company, and for a distribution who
 * gets how much, with the total. A payee is shown as it is now (the request pays the employee, by
 * its wallet); one renumbered or renamed since the request is marked, with what it was then
 * (decision 0069).
 */
export function ApprovalPayloadTable({ approval }: { approval: Approval }) {
  const { t } = useTranslation();
  const { payload } = approval;
  const changes = new Map(approval.payee_changes.map((c) => [c.employee_id, c]));
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
          (payload.items ?? []).map((item) => {
            const change = changes.get(item.employee_id);
            const name = change ? change.name : item.name;
            const staffNumber = change ? change.staff_number : item.staff_number;
            return (
              <TableRow key={item.employee_id} data-changed={change ? 'true' : undefined}>
                <TableCell>
                  <span className="font-medium">{name ?? staffNumber}</span>
                  {name && <span className="ml-2 text-muted-foreground">{staffNumber}</span>}
                  {change && (
                    <span
                      className="mt-1 flex flex-wrap items-center gap-2"
                      data-testid="payee-change"
                    >
                      <Badge variant="destructive">{t('approvals.payee_changed')}</Badge>
                      <span className="text-sm text-muted-foreground">
                        {t('approvals.payee_was', {
                          payee: payeeLabel(change.staff_number_then, change.name_then),
                        })}
                      </span>
                    </span>
                  )}
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {withThousands(item.amount)}
                </TableCell>
              </TableRow>
            );
          })
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
