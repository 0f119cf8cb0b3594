import { sql, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client';
import { auditLog } from '../db/schema';
import { withoutLoneSurrogates } from './text';

/** Who made a change, and from where: taken from the request by `auditActorOf`. */
export interface AuditActor {
  /** The signed-in user's id; null for changes the system makes by itself. */
  userId: number | null;
  ip: string | null;
}

/** The actor of a request: its signed-in user and client address. */
export const auditActorOf = (request: FastifyRequest): AuditActor => ({
  userId: request.user?.id ?? null,
  ip: request.ip || null,
});

export interface AuditRecord {
  actor: AuditActor | number | null;
  /** A verb in snake_case: create, update, status_change, delete, rotate_key, … */
  action: string;
  /** A singular snake_case noun: user, company, employee, merchant, terminal, system_settings, … */
  entityType: string;
  entityId: string | number | null;
  /** The record as the API shows it, before and after the change (null when there is none). */
  before?: unknown;
  after?: unknown;
  /** Overrides the actor's address. */
  ip?: string | null;
  /** When it happened: pass `clock.now()`; the database's now() otherwise. */
  at?: Date;
}

/**
 * Keys that name a secret (passwords, password and key hashes, API keys, CSRF and session
 * tokens). Under such a key only a boolean survives, so `password_changed: true` can say that a
 * password changed without any trace of it.
 */
const SECRET_KEY = /pass(word|wd)|secret|hash|api_?key|csrf|session_?token/i;

/**
 * A JSON-safe copy of a record (one jsonb accepts: no lone surrogate in a key or a string) with
 * every secret removed (see SECRET_KEY).
 */
export function redactForAudit(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return withoutLoneSurrogates(value);
  if (typeof value !== 'object') return typeof value === 'function' ? null : value;
  if (depth > 8) return null;
  if (Array.isArray(value)) return value.map((item) => redactForAudit(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (SECRET_KEY.test(key) && typeof item !== 'boolean') continue;
    out[withoutLoneSurrogates(key)] = redactForAudit(item, depth + 1);
  }
  return out;
}

const asRecord = (value: unknown): Record<string, unknown> | null => {
  const redacted = redactForAudit(value);
  if (redacted === null) return null;
  return typeof redacted === 'object' && !Array.isArray(redacted)
    ? (redacted as Record<string, unknown>)
    : { value: redacted };
};

/** An audit row's actor as its user and address: a bare user id has no address, null neither. */
export const auditActorFrom = (actor: AuditActor | number | null): AuditActor =>
  typeof actor === 'number' ? { userId: actor, ip: null } : (actor ?? { userId: null, ip: null });

/** An address as the audit log keeps it: at most 100 characters. */
export const auditIp = (ip: string | null): string | null => ip?.slice(0, 100) ?? null;

/** The row an audit record becomes: the actor normalised, secrets stripped, the address cut. */
function auditRow(record: AuditRecord) {
  const actor = auditActorFrom(record.actor);
  const ip = record.ip !== undefined ? record.ip : actor.ip;
  return {
    ...(record.at ? { occurredAt: record.at } : {}),
    actorUserId: actor.userId,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId === null ? null : String(record.entityId),
    before: asRecord(record.before),
    after: asRecord(record.after),
    ip: auditIp(ip),
  };
}

/**
 * Appends one row to the audit log. Call it inside the transaction that makes the change, so the
 * change and its record commit or roll back together. Secrets are stripped from before and after.
 */
export async function recordAudit(executor: Executor, record: AuditRecord): Promise<void> {
  await executor.insert(auditLog).values(auditRow(record));
}

/**
 * `recordAudit`'s INSERT as a statement to put in a WITH, so that one statement makes a change
 * and writes its record (a sign-in's session, iam/sessions.repository.ts): atomic as the
 * statement is, with a round trip fewer than a transaction of two.
 */
export function auditInsert(record: AuditRecord): SQL {
  const row = auditRow(record);
  const json = (value: Record<string, unknown> | null) =>
    value === null ? sql`NULL` : sql`${JSON.stringify(value)}::jsonb`;
  return sql`INSERT INTO audit_log (occurred_at, actor_user_id, action, entity_type, entity_id,
                                    before, after, ip)
             VALUES (${row.occurredAt ? sql`${row.occurredAt.toISOString()}::timestamptz` : sql`now()`},
                     ${row.actorUserId}, ${row.action}, ${row.entityType}, ${row.entityId},
                     ${json(row.before)}, ${json(row.after)}, ${row.ip})`;
}
