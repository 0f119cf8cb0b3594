import { useTranslation } from 'react-i18next';
import { formatDateTime, withThousands } from '@/lib/format';
import type { TillOrder } from '../api/till';
import './till.css';

/** The printed receipt of one order: drawn only on paper (till.css), by window.print. */
export function Receipt({
  order,
  merchant,
  terminal,
}: {
  order: TillOrder;
  merchant: string;
  terminal: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section className="till-receipt hidden print:block" aria-hidden="true" data-testid="receipt">
      <p style={{ fontWeight: 700 }}>{merchant}</p>
      <p>{terminal}</p>
      <p>{formatDateTime(order.ordered_at, i18n.language)}</p>
      <p>
        {t('till.order_no')}: {order.order_no}
      </p>
      <hr />
      {order.items.map((item, index) => (
        <p key={index} style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>
            {item.quantity} × {item.name}
          </span>
          <span>{withThousands(item.quantity * item.unit_tokens)}</span>
        </p>
      ))}
      <hr />
      <p style={{ display: 'flex', justifyContent: 'space-between', fontWeight: 700 }}>
        <span>{t('till.total')}</span>
        <span>{withThousands(order.subtotal)}</span>
      </p>
      {order.paid_tokens !== undefined && (
        <p style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>{t('till.paid_tokens')}</span>
          <span>{withThousands(order.paid_tokens)}</span>
        </p>
      )}
      {(order.to_pay_otherwise ?? 0) > 0 && (
        <p style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>{t('till.paid_otherwise')}</span>
          <span>{withThousands(order.to_pay_otherwise ?? 0)}</span>
        </p>
      )}
      {order.refunded_amount > 0 && (
        <p style={{ display: 'flex', justifyContent: 'space-between' }}>
          <span>{t('till.refunded')}</span>
          <span>−{withThousands(order.refunded_amount)}</span>
        </p>
      )}
      <p>
        {t('till.employee')}: {order.company_code} · {order.employee_id}
      </p>
    </section>
  );
}
