// The demo programme's four-eyes approvals (decision 0039): the policy holds distributions of
// 10,000 tokens or more for a second person, and ACME's admin has one such request waiting for
// Group HR. Top-ups stay off: the demo has one admin, and nobody else could decide them.
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import type { Clock } from '../lib/clock';
import type { AuthUser } from '../lib/principal';
import { requestApprovalIfDue, setApprovalPolicyIn } from '../modules/approvals';

/** The demo's distribution threshold: above what the browser journeys hand out. */
export const DEMO_DISTRIBUTION_THRESHOLD = 10_000;

export async function createDemoApprovals(
  tx: Tx,
  input: { clock: Clock; users: AuthUser[]; companyId: number },
): Promise<void> {
  const at = input.clock.now();
  const admin = input.users.find((u) => u.type === 'admin');
  await setApprovalPolicyIn(
    tx,
    admin ? { userId: admin.id, ip: null } : null,
    { top_up_threshold: null, distribution_threshold: DEMO_DISTRIBUTION_THRESHOLD },
    at,
  );
  const requester = input.users.find(
    (u) => u.type === 'company_admin' && u.companyId === input.companyId,
  );
  if (!requester) return;
  const result = (await tx.execute(
    sql`SELECT id FROM employees
         WHERE company_id = ${input.companyId} AND status = 'active' AND deleted_at IS NULL
         ORDER BY id LIMIT 3`,
  )) as unknown as { rows: { id: number | string }[] };
  const ids = result.rows.map((r) => Number(r.id));
  if (ids.length === 0) return;
  // 3 × 3,500 = 10,500: just over the threshold.
  const amount = 3_500;
  await requestApprovalIfDue(tx, {
    kind: 'distribution',
    requester,
    actor: { userId: requester.id, ip: null },
    companyId: input.companyId,
    total: amount * ids.length,
    note: 'Quarterly team bonus',
    items: ids.map((id) => ({ employee_id: id, amount })),
    at,
    // Seeded on first start, not typed by anyone: there is no sign-in to be recent (decision 0083).
    stepUp: null,
  });
}
