import type { TFunction } from 'i18next';
import type { OrderDecline, SpendingException, SpendingRules } from '@app/contract';

/** The rules as the screens state them: only the fields that say what is allowed. */
export type RulesToDescribe = Pick<
  SpendingRules,
  | 'daily_limit'
  | 'order_limit'
  | 'weekdays'
  | 'hours'
  | 'closed_on_holidays'
  | 'merchant_categories'
  | 'partial_payment'
>;

const thousands = (value: number): string => value.toLocaleString('en-US');

/** "a, b and c" / "a、b和c": the language's own list. */
export function listWords(items: string[], t: TFunction): string {
  if (items.length <= 1) return items[0] ?? '';
  const rest = items.slice(0, -1).join(t('spending_rules.words.list_separator'));
  return t('spending_rules.words.list_and', { rest, last: items[items.length - 1] });
}

/**
 * ISO weekdays in words: every day, a run ("Monday to Friday", three days or more), or a list
 * ("Saturday and Sunday").
 */
export function describeWeekdays(weekdays: readonly number[] | null, t: TFunction): string {
  if (weekdays === null || new Set(weekdays).size === 7) return t('spending_rules.words.every_day');
  const days = [...new Set(weekdays)].sort((a, b) => a - b);
  const name = (day: number) => t(`spending_rules.weekdays.${day}`);
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const isRun = days.length >= 3 && last - first === days.length - 1;
  if (isRun) return t('spending_rules.words.day_range', { from: name(first), to: name(last) });
  return listWords(days.map(name), t);
}

/**
 * A rule set in plain words, in the order a person asks: which days, which hours, how much,
 * holidays, where, and split tender: "Monday to Friday, 11:00 to 14:30, at most 25 tokens a day,
 * not on public holidays, restaurants and canteens".
 */
export function describeRules(rules: RulesToDescribe, t: TFunction): string {
  const parts: string[] = [describeWeekdays(rules.weekdays, t)];
  parts.push(
    rules.hours === null
      ? t('spending_rules.words.any_time')
      : rules.hours
          .map((w) => t('spending_rules.words.window', { from: w.from, to: w.to }))
          .join(t('spending_rules.words.or')),
  );
  if (rules.daily_limit !== null) {
    parts.push(
      t('spending_rules.words.daily_limit', {
        count: rules.daily_limit,
        amount: thousands(rules.daily_limit),
      }),
    );
  }
  if (rules.order_limit !== null) {
    parts.push(
      t('spending_rules.words.order_limit', {
        count: rules.order_limit,
        amount: thousands(rules.order_limit),
      }),
    );
  }
  if (rules.closed_on_holidays) parts.push(t('spending_rules.words.closed_on_holidays'));
  parts.push(
    rules.merchant_categories === null
      ? t('spending_rules.words.any_merchant')
      : listWords(
          rules.merchant_categories.map((c) => t(`spending_rules.category_words.${c}`)),
          t,
        ),
  );
  if (rules.partial_payment) parts.push(t('spending_rules.words.partial_payment'));
  return parts.join(t('spending_rules.words.separator'));
}

/**
 * An employee's exception in words, only what differs: "Saturday and Sunday, also on public
 * holidays, at most 30 tokens a day"; `until` is said by the caller, with its date format.
 */
export function describeException(
  exception: Pick<SpendingException, 'weekdays' | 'closed_on_holidays' | 'daily_limit'>,
  t: TFunction,
): string {
  const parts: string[] = [];
  if (exception.weekdays !== null) parts.push(describeWeekdays(exception.weekdays, t));
  if (exception.closed_on_holidays === true) {
    parts.push(t('spending_rules.words.closed_on_holidays'));
  } else if (exception.closed_on_holidays === false) {
    parts.push(t('spending_rules.words.open_on_holidays'));
  }
  if (exception.daily_limit !== null) {
    parts.push(
      t('spending_rules.words.daily_limit', {
        count: exception.daily_limit,
        amount: thousands(exception.daily_limit),
      }),
    );
  }
  if (parts.length === 0) return t('spending_rules.words.no_difference');
  return parts.join(t('spending_rules.words.separator'));
}

/**
 * Why an order was declined: the code's message of the contract's catalogue (the spec's display
 * rule for a code), its `{{placeholders}}` filled from the decline's `details`.
 */
export function declineReason(
  decline: Pick<OrderDecline, 'code' | 'details'>,
  t: TFunction,
): string {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(decline.details ?? {})) {
    values[key] = typeof value === 'number' ? thousands(value) : value;
  }
  return t(decline.code, { ns: 'errors', ...values });
}
