import { describe, expect, it } from 'vitest';
import { i18n } from '@/locales/i18n';
import {
  declineReason,
  describeException,
  describeRules,
  describeWeekdays,
  type RulesToDescribe,
} from './describe-rules';

const none: RulesToDescribe = {
  daily_limit: null,
  order_limit: null,
  weekdays: null,
  hours: null,
  closed_on_holidays: false,
  merchant_categories: null,
  partial_payment: false,
};

const lunch: RulesToDescribe = {
  ...none,
  weekdays: [1, 2, 3, 4, 5],
  hours: [{ from: '11:00', to: '14:30' }],
  daily_limit: 25,
  closed_on_holidays: true,
  merchant_categories: ['restaurant', 'canteen'],
};

const en = i18n.getFixedT('en');
const zh = i18n.getFixedT('zh');

describe('describeRules', () => {
  it('states a lunch rule set in plain English', () => {
    expect(describeRules(lunch, en)).toBe(
      'Monday to Friday, 11:00 to 14:30, at most 25 tokens a day, not on public holidays, restaurants and canteens',
    );
  });

  it('states it in Chinese', () => {
    expect(describeRules(lunch, zh)).toBe(
      '周一至周五，11:00 至 14:30，每天最多 25 代币，公共假日不可用，餐厅和食堂',
    );
  });

  it('says what an open rule set allows', () => {
    expect(describeRules(none, en)).toBe('Every day, at any time, at any merchant');
    expect(describeRules(none, zh)).toBe('每天，任何时段，任何商户');
  });

  it('names every limit, window and category, with thousands and plurals', () => {
    const rules: RulesToDescribe = {
      daily_limit: 1,
      order_limit: 1200,
      weekdays: [6, 7],
      hours: [
        { from: '07:30', to: '09:00' },
        { from: '11:00', to: '14:00' },
      ],
      closed_on_holidays: false,
      merchant_categories: ['cafe', 'bakery', 'grocery'],
      partial_payment: true,
    };
    expect(describeRules(rules, en)).toBe(
      'Saturday and Sunday, 07:30 to 09:00 or 11:00 to 14:00, at most 1 token a day, at most 1,200 tokens an order, cafés, bakeries and grocery shops, the balance may pay part of an order',
    );
    expect(describeRules(rules, zh)).toBe(
      '周六和周日，07:30 至 09:00 或 11:00 至 14:00，每天最多 1 代币，每笔订单最多 1,200 代币，咖啡馆、面包店和杂货店，余额可支付订单的一部分',
    );
  });
});

describe('describeWeekdays', () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7], 'Every day', '每天'],
    [[3, 1, 2], 'Monday to Wednesday', '周一至周三'],
    [[1, 3, 5], 'Monday, Wednesday and Friday', '周一、周三和周五'],
    [[7], 'Sunday', '周日'],
    [[5, 6], 'Friday and Saturday', '周五和周六'],
  ])('%j reads "%s" and "%s"', (days, english, chinese) => {
    expect(describeWeekdays(days, en)).toBe(english);
    expect(describeWeekdays(days, zh)).toBe(chinese);
  });
});

describe('describeException', () => {
  it('says only what differs', () => {
    const exception = { weekdays: [6, 7], closed_on_holidays: false, daily_limit: 30 };
    expect(describeException(exception, en)).toBe(
      'Saturday and Sunday, also on public holidays, at most 30 tokens a day',
    );
    expect(describeException(exception, zh)).toBe('周六和周日，公共假日也可用，每天最多 30 代币');
    expect(
      describeException({ weekdays: null, closed_on_holidays: null, daily_limit: null }, en),
    ).toBe("as the company's rules");
  });
});

describe('declineReason', () => {
  it('fills the code’s message from its details', () => {
    const decline = {
      code: 'DAILY_LIMIT_EXCEEDED' as const,
      details: { daily_limit: 2500, spent_today: 2480, remaining_today: 20 },
    };
    expect(declineReason(decline, en)).toBe(
      'The daily limit of 2,500 tokens is reached: 20 left today.',
    );
    expect(declineReason(decline, zh)).toBe('已达每日限额 2,500 代币：今天还可用 20。');
    expect(declineReason({ code: 'ORDER_LIMIT_EXCEEDED', details: { order_limit: 40 } }, en)).toBe(
      'An order may be at most 40 tokens.',
    );
    expect(declineReason({ code: 'INSUFFICIENT_TOKENS', details: null }, zh)).toBe(
      '余额不足以支付该金额。',
    );
  });
});
