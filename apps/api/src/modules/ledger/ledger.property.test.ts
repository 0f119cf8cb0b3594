// Property: any sequence of issue, distribute, order, refund, status change, renewal and reset,
// across several companies and employees, keeps every invariant and matches a plain model.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../../../test/databases';
import { assertLedgerInvariants } from '../../../test/invariants';
import {
  codeOf,
  ledgerDeps,
  newCompany,
  newEmployee,
  newTerminal,
  order,
  refund,
  type LedgerTestDeps,
  type TestTerminal,
} from '../../../test/ledger';
import { getCompany } from '../companies';
import { getEmployee, renewEmployee, setEmployeeStatus } from '../employees';
import { runMonthlyResets } from '../jobs';
import { distributeToEmployees, issueToCompany } from '../tokens';

const COMPANIES = 2;
const STAFF = 2;
const ALL = { kind: 'all' } as const;

type Command =
  | { kind: 'issue'; company: number; amount: number }
  | { kind: 'distribute'; company: number; items: { staff: number; amount: number }[] }
  | { kind: 'order'; company: number; staff: number; amount: number }
  | {
      kind: 'refund';
      pick: number;
      reason: 'cancelled' | 'rejected' | 'item_removed';
      amount: number;
    }
  | { kind: 'status'; company: number; staff: number }
  | { kind: 'renew'; company: number; staff: number }
  | { kind: 'reset' };

const company = fc.integer({ min: 0, max: COMPANIES - 1 });
const staff = fc.integer({ min: 0, max: STAFF - 1 });
const amount = fc.integer({ min: 1, max: 120 });
// Weighted so the rarer paths (an employee missing a reset, then renewed) come up often.
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('issue' as const),
      company,
      amount: fc.integer({ min: 1, max: 400 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('distribute' as const),
      company,
      items: fc.uniqueArray(fc.record({ staff, amount }), {
        minLength: 1,
        maxLength: STAFF,
        selector: (i) => i.staff,
      }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('order' as const), company, staff, amount }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      pick: fc.nat(),
      reason: fc.constantFrom('cancelled' as const, 'rejected' as const, 'item_removed' as const),
      amount: fc.integer({ min: 1, max: 60 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('status' as const), company, staff }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renew' as const), company, staff }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reset' as const) }) },
);
const plan = fc.record({
  resetDays: fc.array(fc.integer({ min: 1, max: 31 }), {
    minLength: COMPANIES,
    maxLength: COMPANIES,
  }),
  initTokens: fc.array(fc.integer({ min: 0, max: 500 }), {
    minLength: COMPANIES,
    maxLength: COMPANIES,
  }),
  monthly: fc.array(fc.integer({ min: 0, max: 60 }), {
    minLength: COMPANIES,
    maxLength: COMPANIES,
  }),
  commands: fc.array(command, { minLength: 5, maxLength: 30 }),
});

interface ModelEmployee {
  id: number;
  staffNumber: string;
  balance: number;
  active: boolean;
  /** Missed a reset while inactive: in an older token month than its company. */
  behind: boolean;
}
interface ModelCompany {
  id: number;
  code: string;
  balance: number;
  init: number;
  monthly: number;
  staff: ModelEmployee[];
}
interface ModelOrder {
  id: number;
  employee: ModelEmployee;
  remaining: number;
}

describe.each(await testDatabaseKinds())('ledger properties on %s', (kind) => {
  let db: TestDatabase;
  let deps: LedgerTestDeps;
  let terminal: TestTerminal;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    deps = ledgerDeps(db);
    terminal = await newTerminal(deps);
  });
  afterAll(() => db.drop());

  it('keeps every invariant and the model’s balances through random programmes', async () => {
    await fc.assert(
      fc.asyncProperty(plan, async ({ resetDays, initTokens, monthly, commands }) => {
        // Every programme starts on the same day, so earlier programmes' companies (sharing the
        // database) fall due only where this one passes their months, not on every reset.
        deps.clock.set('2026-01-15T08:00:00Z');
        const companies: ModelCompany[] = [];
        for (let c = 0; c < COMPANIES; c += 1) {
          const created = await newCompany(deps, {
            resetDay: resetDays[c]!,
            initToken: initTokens[c]!,
            employeeMonthlyTokens: monthly[c]!,
          });
          const members: ModelEmployee[] = [];
          for (let s = 0; s < STAFF; s += 1) {
            const e = await newEmployee(deps, created.id);
            members.push({
              id: e.id,
              staffNumber: e.employee_id,
              balance: 0,
              active: true,
              behind: false,
            });
          }
          companies.push({
            id: created.id,
            code: created.code,
            balance: initTokens[c]!,
            init: initTokens[c]!,
            monthly: monthly[c]!,
            staff: members,
          });
        }
        const orders: ModelOrder[] = [];
        const expectCode = async (run: Promise<unknown>, expected: string | null) => {
          if (expected === null) await run;
          else expect(await codeOf(run)).toBe(expected);
        };

        for (const cmd of commands) {
          switch (cmd.kind) {
            case 'issue': {
              const c = companies[cmd.company]!;
              await issueToCompany(deps, null, { company_id: c.id, amount: cmd.amount });
              c.balance += cmd.amount;
              break;
            }
            case 'distribute': {
              const c = companies[cmd.company]!;
              const items = cmd.items.map((i) => ({ e: c.staff[i.staff]!, amount: i.amount }));
              const total = items.reduce((s, i) => s + i.amount, 0);
              const blocker = [...items]
                .sort((x, y) => x.e.id - y.e.id)
                .map(({ e }) =>
                  !e.active ? 'USER_INACTIVE' : e.behind ? 'TOKEN_MONTH_NOT_MATCH' : null,
                )
                .find((code) => code !== null);
              const expected = blocker ?? (total > c.balance ? 'TOTAL_EXCEEDS_AVAILABLE' : null);
              await expectCode(
                distributeToEmployees(deps, { kind: 'company', companyId: c.id }, null, {
                  items: items.map((i) => ({ employee_id: i.e.id, amount: i.amount })),
                }),
                expected,
              );
              if (expected === null) {
                c.balance -= total;
                for (const i of items) i.e.balance += i.amount;
              }
              break;
            }
            case 'order': {
              const c = companies[cmd.company]!;
              const e = c.staff[cmd.staff]!;
              const expected = !e.active
                ? 'USER_INACTIVE'
                : e.balance < cmd.amount
                  ? 'INSUFFICIENT_TOKENS'
                  : null;
              if (expected) {
                await expectCode(
                  order(deps, terminal, c, { employee_id: e.staffNumber }, cmd.amount),
                  expected,
                );
              } else {
                const placed = await order(
                  deps,
                  terminal,
                  c,
                  { employee_id: e.staffNumber },
                  cmd.amount,
                );
                e.balance -= cmd.amount;
                orders.push({ id: placed.id, employee: e, remaining: cmd.amount });
              }
              break;
            }
            case 'refund': {
              if (orders.length === 0) break;
              const o = orders[cmd.pick % orders.length]!;
              const value = cmd.reason === 'item_removed' ? cmd.amount : o.remaining;
              const expected =
                o.remaining === 0
                  ? 'ORDER_ALREADY_REFUNDED'
                  : value > o.remaining
                    ? 'REFUND_EXCEEDS_SUBTOTAL'
                    : null;
              await expectCode(
                refund(
                  deps,
                  terminal,
                  o.id,
                  cmd.reason,
                  cmd.reason === 'item_removed' ? cmd.amount : undefined,
                ),
                expected,
              );
              if (expected === null) {
                o.remaining -= value;
                o.employee.balance += value;
              }
              break;
            }
            case 'status': {
              const e = companies[cmd.company]!.staff[cmd.staff]!;
              e.active = !e.active;
              await setEmployeeStatus(deps, ALL, e.id, e.active ? 'active' : 'inactive');
              break;
            }
            case 'renew': {
              const c = companies[cmd.company]!;
              const e = c.staff[cmd.staff]!;
              const expected = !e.active
                ? 'USER_INACTIVE'
                : e.behind && c.monthly > c.balance
                  ? 'TOTAL_EXCEEDS_AVAILABLE'
                  : null;
              await expectCode(
                renewEmployee(deps, { kind: 'company', companyId: c.id }, e.id, null),
                expected,
              );
              if (expected === null && e.behind) {
                e.balance = c.monthly;
                c.balance -= c.monthly;
                e.behind = false;
              }
              break;
            }
            case 'reset': {
              const due = await Promise.all(
                companies.map(
                  async (c) => new Date((await getCompany(deps, ALL, c.id)).next_reset_at),
                ),
              );
              const at = new Date(Math.min(...due.map((d) => d.getTime())));
              deps.clock.set(at);
              await runMonthlyResets(deps);
              companies.forEach((c, index) => {
                if (due[index]!.getTime() > at.getTime()) return;
                for (const e of c.staff) e.balance = 0;
                c.balance = c.init;
                const renewed = c.staff.filter((e) => e.active);
                for (const e of c.staff) e.behind = !e.active;
                const wanted = renewed.length * c.monthly;
                if (wanted > 0 && wanted <= c.balance) {
                  for (const e of renewed) e.balance = c.monthly;
                  c.balance -= wanted;
                }
              });
              break;
            }
          }
        }

        for (const c of companies) {
          expect((await getCompany(deps, ALL, c.id)).token_balance).toBe(c.balance);
          for (const e of c.staff) {
            expect((await getEmployee(deps, ALL, e.id)).available_tokens).toBe(e.balance);
          }
        }
        await assertLedgerInvariants(deps.database.db);
      }),
      // Modest: every run writes to a real database, and the suite shares two cores. Shrinking a
      // failure re-runs programmes on an ever larger database, so it is cut off, keeping the
      // smallest counterexample found by then (a failure stays a failure). A busy machine that
      // runs fewer programmes in the time is not a failure: no test depends on the clock.
      {
        numRuns: kind === 'pglite' ? 15 : 25,
        interruptAfterTimeLimit: 45_000,
      },
    );
  }, 60_000);
});
