import path from 'node:path';
import { z } from 'zod';
import {
  EXPORT_MAX_ROWS_DEFAULT,
  passwordSchema,
  ROLES,
  usernameSchema,
  type Role,
} from '@app/contract';
import { REPO_ROOT } from './locations';

export { API_ROOT, REPO_ROOT } from './locations';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const timeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as UTC or Asia/Shanghai');

/** 32 bytes written as 64 hex digits or as base64 (44 characters with padding). */
export function parseKey32(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

/** `none`, or a comma-separated list of roles (`admin,super_hr`). */
const roleList = z.string().transform((value, ctx): Role[] => {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 1 && items[0]!.toLowerCase() === 'none') return [];
  const unknown = items.filter((item) => !(ROLES as readonly string[]).includes(item));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `unknown role(s) ${unknown.join(', ')}; use "none" or some of ${ROLES.join(', ')}`,
    });
    return z.NEVER;
  }
  return [...new Set(items)] as Role[];
});

/** A comma-separated list of TCP ports (`443,8443`), each 1 to 65535 in decimal digits. */
const portList = z.string().transform((value, ctx): number[] => {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const ports = items.map((item) => (/^\d{1,5}$/.test(item) ? Number(item) : NaN));
  const bad = items.filter((_, i) => !(ports[i]! >= 1 && ports[i]! <= 65_535));
  if (items.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a comma-separated list of ports 1 to 65535${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  return [...new Set(ports)];
});

/** Roles that must enrol in TOTP when MFA_REQUIRED_ROLES is unset, outside the demo (DESIGN 4.1). */
export const DEFAULT_MFA_REQUIRED_ROLES: Role[] = ['admin', 'super_hr'];

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATABASE_URL: z.url().optional(),
    /**
     * A read replica (or a balancer in front of replicas) for reports, dashboards and exports only;
     * unset: they read DATABASE_URL. It may lag the primary (decision 0023).
     */
    DATABASE_READ_URL: z.url().optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
    /** PostgreSQL cuts off any statement running longer than this (504 TIMEOUT), freeing its connection. */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    DATA_DIR: z.string().min(1).default('data'),
    APP_TIMEZONE: timeZone.default('UTC'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    ADMIN_USERNAME: usernameSchema.optional(),
    ADMIN_PASSWORD: passwordSchema.optional(),
    ADMIN_EMAIL: z.email().optional(),
    /** Load the demo programme on an empty embedded database (default: only when no admin is configured). */
    DEMO_DATA: bool.optional(),
    SERVE_WEB: bool.default(true),
    WEB_DIST_DIR: z.string().min(1).default(path.join(REPO_ROOT, 'apps/web/dist')),
    /**
     * A signed-in user's /dashboard sent drawn with its figures by the web build's server entry,
     * WEB_DIST_DIR/.server/prerender.mjs (decision 0050); off, or without it, the browser draws it.
     */
    WEB_SERVER_RENDER: bool.default(true),
    /** Trust X-Forwarded-* from a reverse proxy (needed to know a request came over HTTPS). */
    TRUST_PROXY: bool.default(false),
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(30),
    SESSION_ABSOLUTE_HOURS: z.coerce.number().int().min(1).default(12),
    /** Sign-in requests one client address may make per minute, whatever their outcome. */
    LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    /** Failed sign-ins per (submitted login, address) before each further one doubles a wait. */
    SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).max(1_000).default(5),
    /** Failed sign-ins per address, whatever the login, before waits begin (looser: stops spraying). */
    SIGN_IN_ADDRESS_FREE_FAILURES: z.coerce.number().int().min(1).max(1_000_000).default(30),
    /** The longest wait between sign-in attempts (the waits double from 1 s up to this). */
    SIGN_IN_MAX_DELAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    /** Failures are forgotten after this many minutes without one. */
    SIGN_IN_FAILURE_MEMORY_MINUTES: z.coerce.number().int().min(1).max(43_200).default(60),
    /**
     * Step-up (DESIGN 9, decision 0083): approving a money request, making one that reaches the
     * approval threshold and changing spending rules need a sign-in or a re-authentication from
     * within this many seconds (else 401 REAUTHENTICATION_REQUIRED).
     */
    STEP_UP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    /** Requests one terminal key may make per minute (orders and refunds together). */
    TERMINAL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
    /**
     * Group commit of the terminal path (decision 0034): the most terminal key checks, and the most
     * orders, sent to the database in one statement and transaction (1: each alone), and how many
     * such batches of each may be at the database at once.
     */
    TERMINAL_GROUP_COMMIT_MAX: z.coerce.number().int().min(1).max(1000).default(64),
    TERMINAL_GROUP_COMMIT_IN_FLIGHT: z.coerce.number().int().min(1).max(100).default(2),
    /**
     * A second batch of either goes to the database beside a running one only when a full batch
     * waits or the running one has taken this many milliseconds (decision 0067); 0: at once.
     */
    TERMINAL_GROUP_COMMIT_OVERLAP_MS: z.coerce.number().int().min(0).max(60_000).default(20),
    /** Unknown terminal keys one client address may present per minute before it is shut out. */
    TERMINAL_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
    /**
     * How often each instance runs the scheduled jobs (monthly resets, the system period's reset,
     * auto-archive, approval expiry, the sweep of expired counters); 0: never.
     */
    JOBS_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /**
     * Webhooks (decision 0038): allow http:// and loopback targets (development and tests only;
     * private and link-local addresses stay refused), and how often each instance looks for due
     * deliveries (milliseconds; 0: this instance delivers nothing).
     */
    WEBHOOKS_ALLOW_HTTP: bool.default(false),
    /**
     * The ports a webhook URL may name (decision 0071): comma-separated, 1 to 65535. Loopback
     * targets with WEBHOOKS_ALLOW_HTTP=true may use any port (the tests' receiver).
     */
    WEBHOOKS_ALLOWED_PORTS: portList.default([443, 8443]),
    WEBHOOKS_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /**
     * Development and tests only (decision 0085): the server's clock reads this instant when the
     * process starts and runs on from it at the real pace, so the demo programme and every "today"
     * fall on the same days whenever it runs (the browser journeys' reference pictures); unset:
     * the system clock.
     */
    CLOCK_START: z.iso.datetime({ offset: true }).optional(),
    /** With CLOCK_START: the clock stays at that instant (every "now" the same; tests only). */
    CLOCK_FROZEN: bool.default(false),
    /** Refund orders still `ordered` after this many hours (reason auto_archived); 0: off. */
    AUTO_ARCHIVE_AFTER_HOURS: z.coerce
      .number()
      .int()
      .min(0)
      .max(24 * 366)
      .default(0),
    /** CSV exports: the most rows one export may hold (larger ones are refused up front). */
    EXPORT_MAX_ROWS: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000_000)
      .default(EXPORT_MAX_ROWS_DEFAULT),
    /** CSV exports: rows read from the database per query while streaming. */
    EXPORT_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1_000),
    /**
     * Encrypts TOTP secrets at rest (AES-256-GCM): 32 bytes, hex or base64. Unset on the embedded
     * database: a key is made and kept in DATA_DIR/mfa-encryption.key. Unset with DATABASE_URL:
     * two-factor enrolment answers MFA_NOT_CONFIGURED (decision 0015).
     */
    MFA_ENCRYPTION_KEY: z
      .string()
      .refine((v) => parseKey32(v) !== null, 'must be 32 bytes, as 64 hex digits or base64')
      .optional(),
    /** Roles that must turn on two-factor sign-in: `none` or a list; see decision 0015. */
    MFA_REQUIRED_ROLES: roleList.optional(),
    /** The issuer an authenticator app shows beside the account. */
    MFA_ISSUER: z.string().min(1).max(64).default('Token Back-office'),
    /** GET /metrics (Prometheus text, DESIGN 4.2); `false` answers it 404. */
    METRICS_ENABLED: bool.default(true),
    /** When set, GET /metrics wants `Authorization: Bearer <this>` (401 otherwise). */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /**
     * OpenTelemetry traces of requests and SQL go to this OTLP/HTTP collector (e.g.
     * http://127.0.0.1:4318); unset: no tracing module is even loaded (decision 0019).
     */
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    /** The service.name of the spans. */
    OTEL_SERVICE_NAME: z.string().min(1).max(100).default('token-back-office-api'),
    /** On SIGTERM/SIGINT, in-flight requests get this long to finish before the process exits. */
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
    /**
     * npm run backup / restore: the directory of pg_dump and pg_restore; unset: Debian's
     * /usr/lib/postgresql/<server major>/bin, else the PATH's (decision 0021).
     */
    PG_BIN_DIR: z.string().min(1).optional(),
    /** smtp:// or smtps://user:pass@host:port for the invitation mails; unset: links are handed over (decision 0025). */
    SMTP_URL: z
      .url()
      .refine((url) => /^smtps?:\/\//.test(url), 'SMTP_URL must start with smtp:// or smtps://')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Token Back Office <no-reply@localhost>'),
  })
  .superRefine((env, ctx) => {
    if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['DATABASE_READ_URL'],
        message: 'needs DATABASE_URL (the embedded database has no replicas)',
      });
    }
    if (env.CLOCK_FROZEN && !env.CLOCK_START) {
      ctx.addIssue({
        code: 'custom',
        path: ['CLOCK_FROZEN'],
        message: 'needs CLOCK_START (the instant the clock stays at)',
      });
    }
    if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: ['ADMIN_PASSWORD'],
        message: 'ADMIN_USERNAME and ADMIN_PASSWORD must be set together',
      });
    }
  });

export type Config = z.infer<typeof envSchema> & {
  /** Absolute directory of the embedded database. */
  dataDir: string;
  /** Embedded PGlite when no DATABASE_URL is given. */
  isEmbedded: boolean;
  /** Whether first start may load the demo programme. */
  loadDemo: boolean;
  /** Roles that must enrol in TOTP before anything else (MFA_REQUIRED_ROLES, decision 0015). */
  mfaRequiredRoles: Role[];
  /** MFA_ENCRYPTION_KEY decoded, or null when unset. */
  mfaEncryptionKey: Buffer | null;
};

/** Every key the configuration reads; `.env.example` lists each of them (STYLE 7). */
export const CONFIG_KEYS: readonly string[] = Object.keys(envSchema.shape);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * The environment a child process of an operations script (pg_dump, pg_restore) runs with: this
 * process's, with `extra` on top (PGPASSWORD, so that no password is in the arguments).
 */
export function childProcessEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/** Parses the environment once; fails with every bad key listed (STYLE 7). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`),
    );
  }
  const c = parsed.data;
  const isEmbedded = !c.DATABASE_URL;
  const loadDemo = c.DEMO_DATA ?? (isEmbedded && !c.ADMIN_USERNAME);
  return {
    ...c,
    dataDir: path.resolve(REPO_ROOT, c.DATA_DIR),
    isEmbedded,
    loadDemo,
    // The demo signs in as its admins without an authenticator app; real deployments do not.
    mfaRequiredRoles: c.MFA_REQUIRED_ROLES ?? (loadDemo ? [] : DEFAULT_MFA_REQUIRED_ROLES),
    mfaEncryptionKey: c.MFA_ENCRYPTION_KEY ? parseKey32(c.MFA_ENCRYPTION_KEY) : null,
  };
}
