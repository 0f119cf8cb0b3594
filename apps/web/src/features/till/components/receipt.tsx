import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { withThousands } from '@/lib/text';
import type { TillOrder } from '../api/till';
import { tillDateTime } from '../lib/format';
import './till.css';

/** One line of the receipt: a label and its figure at the end. */
function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <p className={`till-receipt-line${strong ? ' till-receipt-strong' : ''}`}>
      <span>{label}</span>
      <span>{value}</span>
    </p>
  );
}

/**
 * The printed receipt of one order (DESIGN 8): drawn at the end of the document, on paper only
 * (till.css: in print, the receipt and nothing else), by window.print.
 */
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
  return createPortal(
    <section className="till-receipt" data-testid="receipt" lang={i18n.language}>
      <p className="till-receipt-strong">{merchant}</p>
      <p>{terminal}</p>
      <p>{tillDateTime(order.ordered_at, i18n.language)}</p>
      <p>
        {t('till.order_no')}: {order.order_no}
      </p>
      <hr />
      {order.items.map((item, index) => (
        <Line
          key={index}
          label={`${item.quantity} × ${item.name}`}
          value={withThousands(item.quantity * item.unit_tokens)}
        />
      ))}
      <hr />
      <Line label={t('till.total')} value={withThousands(order.subtotal)} strong />
      {order.paid_tokens !== undefined && (
        <Line label={t('till.paid_tokens')} value={withThousands(order.paid_tokens)} />
      )}
      {(order.to_pay_otherwise ?? 0) > 0 && (
        <Line label={t('till.paid_otherwise')} value={withThousands(order.to_pay_otherwise ?? 0)} />
      )}
      {order.refunded_amount > 0 && (
        <Line label={t('till.refunded')} value={`−${withThousands(order.refunded_amount)}`} />
      )}
      <p>
        {t('till.employee')}: {order.company_code} · {order.employee_id}
      </p>
    </section>,
    document.body,
  );
}
