import type { Company, Status } from '@app/contract';
import { confirmAlert } from '@/lib/alert-store';
import { confirmStatusChange, nextStatus } from '@/lib/confirm';
import { formatDate, withThousands } from '@/lib/format';
import { i18n } from '@/locales/i18n';
import { toast } from 'sonner';

/**
 * Activates a company after the plain confirm, or deactivates it after a confirm that says what
 * happens (issue 19 item 5): its balance stays but cannot be issued or given out, its employees
 * cannot spend, and at its next reset the balance expires with no monthly tokens arriving.
 */
export async function toggleCompanyStatusWithConfirm(
  company: Company,
  change: (next: Status, callbacks: { onSuccess: () => void }) => void,
): Promise<void> {
  const next = nextStatus(company.status);
  const confirmed =
    next === 'active'
      ? await confirmStatusChange(company.name, next)
      : await confirmAlert({
          id: `company-deactivate-${company.id}`,
          titleKey: 'companies.deactivate_title',
          messageKey: 'companies.deactivate_message',
          values: {
            name: company.name,
            balance: withThousands(company.token_balance),
            date: formatDate(company.next_reset_at),
          },
          confirmKey: 'companies.deactivate_confirm',
          cancelKey: 'actions.cancel',
          destructive: true,
        });
  if (!confirmed) return;
  change(next, {
    onSuccess: () =>
      toast.success(
        i18n.t(next === 'active' ? 'toasts.company_activated' : 'toasts.company_deactivated', {
          name: company.name,
        }),
      ),
  });
}
