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
}

/** The terminal behind a terminal-key request. */
export interface TerminalIdentity {
  id: number;
  merchantId: number;
}
