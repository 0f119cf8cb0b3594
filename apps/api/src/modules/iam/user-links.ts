// Links between accounts (issue 39, decision 0069): one user's act on another's account that
// would let the first sign in as the second. Four-eyes approvals refuse a decider linked to the
// requester (either way) in the last LINK_DAYS days. Recorded in the transaction of the act.
import { sql } from 'drizzle-orm';
import type { UserLinkKind } from '@app/contract';
import { queryRows, type Executor } from '../../db/client';
import { toInt } from '../../lib/numbers';

/** How long an act on another's account keeps the two from being each other's second pair of eyes. */
export const LINK_DAYS = 30;
const DAY_MS = 86_400_000;

/** The start of the window in which links count, for a decision at `now`. */
export const linkWindowStart = (now: Date): Date => new Date(now.getTime() - LINK_DAYS * DAY_MS);

/**
 * Records that `actorUserId` did `kind` to `targetUserId`'s account. An act without a person (the
 * seed, the system) or on one's own account links nobody, and is not recorded.
 */
export async function recordUserLink(
  executor: Executor,
  link: { actorUserId: number | null; targetUserId: number; kind: UserLinkKind; at: Date },
): Promise<void> {
  if (link.actorUserId === null || link.actorUserId === link.targetUserId) return;
  await executor.execute(
    sql`INSERT INTO user_links (actor_user_id, target_user_id, kind, occurred_at)
        VALUES (${link.actorUserId}, ${link.targetUserId}, ${link.kind},
                ${link.at.toISOString()}::timestamptz)`,
  );
}

export interface UserLink {
  actorUserId: number;
  targetUserId: number;
  kind: UserLinkKind;
  at: Date;
}

/** The latest link between two users, either way, since `since`; undefined when none. */
export async function findUserLink(
  executor: Executor,
  a: number,
  b: number,
  since: Date,
): Promise<UserLink | undefined> {
  const at = since.toISOString();
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT actor_user_id, target_user_id, kind, occurred_at FROM user_links
         WHERE ((actor_user_id = ${a} AND target_user_id = ${b})
             OR (actor_user_id = ${b} AND target_user_id = ${a}))
           AND occurred_at > ${at}::timestamptz
         ORDER BY occurred_at DESC, id DESC LIMIT 1`,
  );
  if (!row) return undefined;
  return {
    actorUserId: toInt(row.actor_user_id),
    targetUserId: toInt(row.target_user_id),
    kind: row.kind as UserLinkKind,
    at: row.occurred_at instanceof Date ? row.occurred_at : new Date(String(row.occurred_at)),
  };
}

/** The users among `others` linked to `userId` (either way) since `since`. */
export async function linkedAmong(
  executor: Executor,
  userId: number,
  others: number[],
  since: Date,
): Promise<Set<number>> {
  if (others.length === 0) return new Set();
  const ids = sql.param(others);
  const at = since.toISOString();
  const rows = await queryRows<{ other: unknown }>(
    executor,
    sql`SELECT target_user_id AS other FROM user_links
         WHERE actor_user_id = ${userId} AND target_user_id = ANY(${ids}::bigint[])
           AND occurred_at > ${at}::timestamptz
        UNION
        SELECT actor_user_id FROM user_links
         WHERE target_user_id = ${userId} AND actor_user_id = ANY(${ids}::bigint[])
           AND occurred_at > ${at}::timestamptz`,
  );
  return new Set(rows.map((r) => toInt(r.other)));
}

/** SQL: whether `user` (an SQL expression) and `other` are linked since `since` (for WHERE). */
export const linkedSql = (
  user: ReturnType<typeof sql>,
  other: ReturnType<typeof sql>,
  since: Date,
) =>
  sql`EXISTS (SELECT 1 FROM user_links l
               WHERE ((l.actor_user_id = ${user} AND l.target_user_id = ${other})
                   OR (l.actor_user_id = ${other} AND l.target_user_id = ${user}))
                 AND l.occurred_at > ${since.toISOString()}::timestamptz)`;
