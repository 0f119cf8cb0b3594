import { describe, expect, it } from 'vitest';
import { parsePayCode, payCodeOf } from './self-service';

describe('pay code', () => {
  it('reads back what it wrote, a staff number with colons included', () => {
    const code = payCodeOf({ company_code: 'ACME01', employee_id: 'E:0001' });
    expect(code).toBe('ACME01:E:0001');
    expect(parsePayCode(code)).toEqual({ company_code: 'ACME01', employee_id: 'E:0001' });
  });

  it('refuses a code without both parts or with a company code no company can have', () => {
    for (const bad of ['ACME01', ':E0001', 'ACME01:', 'AC-ME:E0001']) {
      expect(parsePayCode(bad), bad).toBeNull();
    }
  });
});
