import type { TFunction } from 'i18next';
import type { TokenTransaction } from '@app/contract';

/** An order type in words; a type terminals send that has no name yet is shown as sent. */
export const orderTypeLabel = (t: TFunction, orderType: string): string =>
  t(`order_types.${orderType}`, { defaultValue: orderType });

/** "E0001 Ava Chen", or the staff number alone. */
export const personLabel = (number: string | null, name: string | null): string =>
  [number, name].filter(Boolean).join(' ');

/**
 * A ledger row in words with its counterparty, from the row's own fields: "Issued to E0001 Ava
 * Chen", "Order ORD-… at SHOP", "Received from the platform".
 */
export function describeTransaction(t: TFunction, row: TokenTransaction): string {
  const company = row.company_name ? `${row.company_name} (${row.company_code})` : row.company_code;
  const order = row.order_no ?? '';
  const merchant = row.merchant_code ?? row.merchant_name ?? '';
  const isCompanyWallet = row.employee_id === null;
  switch (row.event) {
    case 'company_issued':
      return t('ledger.describe.company_issued');
    case 'monthly_tokens_added':
      return t('ledger.describe.monthly_tokens_added');
    case 'employee_issued':
    case 'monthly_tokens_reset': {
      const kind = row.event === 'employee_issued' ? 'issued' : 'renewed';
      if (isCompanyWallet) {
        const employee = personLabel(
          row.counterparty_employee_number,
          row.counterparty_employee_name,
        );
        return t(`ledger.describe.${kind}_to`, { employee });
      }
      return t(`ledger.describe.${kind}_from`, { company });
    }
    case 'order_purchased':
      return t('ledger.describe.order_purchased', { order, merchant });
    case 'order_refunded':
      return t('ledger.describe.order_refunded', {
        order,
        merchant,
        reason: row.refund_reason ? t(`order_history.reasons.${row.refund_reason}`) : '',
      });
    case 'company_expired':
      return t('ledger.describe.company_expired');
    case 'employee_expired':
      return t('ledger.describe.employee_expired');
  }
}
