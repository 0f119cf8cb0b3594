// Drizzle view of migration 0005 (audit log, system periods). The SQL file is the truth.
import {
  bigint,
  boolean,
  date,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

export const auditLog = pgTable('audit_log', {
  id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  occurredAt: ts().notNull().defaultNow(),
  actorUserId: bigint({ mode: 'number' }),
  action: text().notNull(),
  entityType: text().notNull(),
  entityId: text(),
  before: jsonb().$type<Record<string, unknown>>(),
  after: jsonb().$type<Record<string, unknown>>(),
  ip: text(),
});

export const systemPeriods = pgTable('system_periods', {
  period: text().primaryKey(),
  startsAt: ts().notNull(),
  endsAt: ts(),
});

export const systemSettings = pgTable('system_settings', {
  id: boolean().primaryKey().default(true),
  nextResetDate: date({ mode: 'string' }).notNull(),
  resetDay: integer().notNull(),
  updatedAt: ts(),
  updatedBy: bigint({ mode: 'number' }),
});
