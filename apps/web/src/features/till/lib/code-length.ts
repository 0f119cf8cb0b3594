/**
 * The digits of a pay code (the contract's PAY_CODE_LENGTH: a 12-digit device number and a
 * 6-digit TOTP), spelled here so the till's first load leaves the contract's schemas (zod) out;
 * till-page.test.ts holds the two equal.
 */
export const TILL_CODE_LENGTH = 18;
