import { sql } from 'drizzle-orm';
import { queryRows, type Executor } from '../../db/client';
import { toInt } from '../../lib/numbers';

export async function insertInvitation(
  executor: Executor,
  row: { tokenHash: string; userId: number; invitedBy: number | null; at: Date; expiresAt: Date },
): Promise<void> {
  await executor.execute(
    sql`INSERT INTO user_invitations (token_hash, user_id, invited_by, created_at, expires_at)
        VALUES (${row.tokenHash}, ${row.userId}, ${row.invitedBy}, ${row.at.toISOString()}::timestamptz,
                ${row.expiresAt.toISOString()}::timestamptz)`,
  );
}

/** The unused, unexpired invitation with this token hash, and whose it is. */
export async function lookupOpenInvitation(
  executor: Executor,
  tokenHash: string,
  now: Date,
  /** Lock the user's row (accepting): a deactivation racing the accept waits, or is seen. */
  forUpdate = false,
): Promise<{ userId: number; username: string; expiresAt: Date; isActive: boolean } | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`SELECT i.user_id, u.username, i.expires_at,
               (u.status = 'active' AND u.deleted_at IS NULL) AS is_active
          FROM user_invitations i JOIN users u ON u.id = i.user_id
         WHERE i.token_hash = ${tokenHash} AND i.used_at IS NULL
           AND i.expires_at > ${now.toISOString()}::timestamptz
        ${forUpdate ? sql`FOR UPDATE OF u` : sql``}`,
  );
  if (!row) return undefined;
  return {
    userId: toInt(row.user_id),
    username: row.username as string,
    expiresAt: new Date(row.expires_at as string | Date),
    isActive: row.is_active === true,
  };
}

/**
 * Marks the invitation used, if it is still open: one statement, so of two requests racing with
 * the same link only one gets the user back. Every other open link of that user ends with it.
 */
export async function consumeInvitation(
  executor: Executor,
  tokenHash: string,
  now: Date,
): Promise<number | undefined> {
  const at = now.toISOString();
  const [row] = await queryRows<Record<string, unknown>>(
    executor,
    sql`UPDATE user_invitations SET used_at = ${at}::timestamptz
         WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > ${at}::timestamptz
        RETURNING user_id`,
  );
  if (!row) return undefined;
  const userId = toInt(row.user_id);
  await executor.execute(
    sql`UPDATE user_invitations SET used_at = ${at}::timestamptz
         WHERE user_id = ${userId} AND used_at IS NULL`,
  );
  return userId;
}

/**
 * Ends every open link of the user (the unused ones, expired or not) and says how many there
 * were: none means the account has a password (its link was used, or it never had one). One
 * statement, so a link accepted meanwhile is not counted.
 */
export async function closeOpenInvitations(
  executor: Executor,
  userId: number,
  now: Date,
): Promise<number> {
  const rows = await queryRows<Record<string, unknown>>(
    executor,
    sql`UPDATE user_invitations SET used_at = ${now.toISOString()}::timestamptz
         WHERE user_id = ${userId} AND used_at IS NULL
        RETURNING token_hash`,
  );
  return rows.length;
}
