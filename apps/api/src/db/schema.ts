// Drizzle table definitions: the typed view of the SQL in ./migrations (the migrations are the truth).
import { bigint, boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const id = () => bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();
const ts = () => timestamp({ withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: id(),
  username: text().notNull(),
  email: text(),
  passwordHash: text().notNull(),
  type: text().notNull(),
  status: text().notNull(),
  companyId: bigint({ mode: 'number' }),
  merchantId: bigint({ mode: 'number' }),
  employeeId: text(),
  passwordChangedAt: ts().notNull().defaultNow(),
  createdAt: ts().notNull().defaultNow(),
  updatedAt: ts().notNull().defaultNow(),
  /** Soft delete (migration 0005): set, the user is gone from lists and sign-in. */
  deletedAt: ts(),
});

export const sessions = pgTable('sessions', {
  idHash: text().primaryKey(),
  userId: bigint({ mode: 'number' }).notNull(),
  createdAt: ts().notNull(),
  lastSeenAt: ts().notNull(),
  expiresAt: ts().notNull(),
  ip: text(),
  userAgent: text(),
  // Step-up (migration 0037): the last POST /iam/reauthenticate of this session.
  reauthenticatedAt: ts(),
  // OIDC sign-in (migration 0039): the provider said it checked a second factor (decision 0086).
  secondFactorAtProvider: boolean().notNull().default(false),
});

// Two-factor sign-in (migration 0015).
export const userTotp = pgTable('user_totp', {
  userId: bigint({ mode: 'number' }).primaryKey(),
  secretEncrypted: text().notNull(),
  enabledAt: ts(),
  lastUsedStep: bigint({ mode: 'number' }),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

export const userRecoveryCodes = pgTable('user_recovery_codes', {
  id: id(),
  userId: bigint({ mode: 'number' }).notNull(),
  codeHash: text().notNull(),
  usedAt: ts(),
  createdAt: ts().notNull(),
});

export const mfaChallenges = pgTable('mfa_challenges', {
  idHash: text().primaryKey(),
  userId: bigint({ mode: 'number' }).notNull(),
  login: text().notNull(),
  failures: integer().notNull(),
  createdAt: ts().notNull(),
  expiresAt: ts().notNull(),
  ip: text(),
  userAgent: text(),
});

// The ledger's tables (migration 0002).
export * from './ledger-schema';
// The audit log and the system periods (migration 0005).
export * from './audit-system-schema';
