import type { Executor } from '../../db/client';
import { hashTerminalKey } from './terminal-keys';
import { findTerminalByKeyHash } from './terminals.repository';

/**
 * A terminal's key is its session: the terminal-auth plugin resolves it here, as the auth plugin
 * resolves a cookie in iam/sessions.service. Plugins reach modules only through these two.
 */
export function findTerminalByKey(executor: Executor, key: string) {
  return findTerminalByKeyHash(executor, hashTerminalKey(key));
}
