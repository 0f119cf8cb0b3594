import type { Role } from '@app/contract';

/**
 * Who is behind a request: a signed-in person (cookie session) or a terminal (API key). Plugins
 * fill these in and modules read them, so both import this file and neither imports the other.
 */

/** The signed-in person behind a request. */
export interface AuthUser {
  id: number;
  type: Role;
  username: string;
  email: string | null;
  companyId: number | null;
  merchantId: number | null;
  /** The company's own staff number, for employees. */
  employeeId: string | null;
  status: 'active' | 'inactive';
  /**
   * A session's user: when it last proved who it is (its sign-in, or its last step-up through
   * POST /iam/reauthenticate). Absent for a user not behind a session.
   */
  authenticatedAt?: Date;
  /**
   * An OIDC sign-in whose provider said (ID token `amr`) that it checked a second factor: the
   * two-factor rule of the user's role is met (decision 0086).
   */
  secondFactorAtProvider?: boolean;
}

/** The terminal behind a terminal-key request. */
export interface TerminalIdentity {
  id: number;
  merchantId: number;
  /**
   * Where the key stands against its requests per minute, when this request counted one: sent
   * as the RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset headers (plugins/terminal-auth.ts).
   */
  rateLimit?: { limit: number; remaining: number; resetSeconds: number };
}
