import type { Direction, RefundReason, TokenEvent } from './events';
import type { OrderStatus, RefundState } from './statuses';

/** The languages the back-office speaks (the error catalogue's too). */
export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];

type Labels<K extends string> = Record<K, Record<Lang, string>>;

/**
 * Enum labels for what the server writes for people (CSV exports, decision 0022); the web app's
 * locale files carry the same words for the screen.
 */
export const TOKEN_EVENT_LABELS: Labels<TokenEvent> = {
  company_issued: { en: 'Company issued', zh: '公司发放' },
  employee_issued: { en: 'Employee issued', zh: '员工发放' },
  order_purchased: { en: 'Order purchased', zh: '订单消费' },
  order_refunded: { en: 'Order refunded', zh: '订单退款' },
  company_expired: { en: 'Company expired', zh: '公司代币过期' },
  employee_expired: { en: 'Employee expired', zh: '员工代币过期' },
  monthly_tokens_added: { en: 'Monthly tokens added', zh: '每月代币增加' },
  monthly_tokens_reset: { en: 'Monthly tokens reset', zh: '每月代币重置' },
};

export const DIRECTION_LABELS: Labels<Direction> = {
  received: { en: 'Received', zh: '收到' },
  sent: { en: 'Sent', zh: '发出' },
};

export const REFUND_REASON_LABELS: Labels<RefundReason> = {
  cancelled: { en: 'Cancelled', zh: '已取消' },
  rejected: { en: 'Rejected', zh: '已拒绝' },
  item_removed: { en: 'Item removed', zh: '商品移除' },
  auto_archived: { en: 'Auto-archived', zh: '自动归档' },
};

export const ORDER_STATUS_LABELS: Labels<OrderStatus> = {
  ordered: { en: 'Ordered', zh: '已下单' },
  refunded: { en: 'Refunded', zh: '已退款' },
};

export const REFUND_STATE_LABELS: Labels<RefundState> = {
  none: { en: 'Not refunded', zh: '未退款' },
  partial: { en: 'Partially refunded', zh: '部分退款' },
  full: { en: 'Refunded', zh: '已退款' },
};

/**
 * Order types are free text from terminals (DESIGN 3.4); the ones terminals send today have
 * names, any other is shown as sent.
 */
export const KNOWN_ORDER_TYPES = ['dine_in', 'takeaway', 'delivery'] as const;
export const ORDER_TYPE_LABELS: Labels<(typeof KNOWN_ORDER_TYPES)[number]> = {
  dine_in: { en: 'Dine in', zh: '堂食' },
  takeaway: { en: 'Takeaway', zh: '外带' },
  delivery: { en: 'Delivery', zh: '外送' },
};

export function orderTypeLabel(orderType: string, lang: Lang): string {
  return (
    (ORDER_TYPE_LABELS as Record<string, Record<Lang, string>>)[orderType]?.[lang] ?? orderType
  );
}
