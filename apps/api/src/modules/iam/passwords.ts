import crypto from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { passwordSchema } from '@app/contract';
import { AppError } from '../../lib/app-error';

/**
 * argon2id at the OWASP baseline: 19 MiB, 2 passes, 1 lane (docs/decisions/0002).
 * `2` is Algorithm.Argon2id; the enum is a const enum, which isolatedModules cannot read.
 */
export const ARGON2_OPTIONS: Options = {
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

let hashOptions: Options = ARGON2_OPTIONS;
/**
 * For the API's test processes only (test/setup.ts): argon2id at its least cost, because the
 * suites hash and check passwords thousands of times and a password's strength is not what they
 * test. Servers, scripts and the bench never call it (passwords.test.ts starts one to see).
 */
export function hashAtLeastCostForTests(): void {
  hashOptions = { ...ARGON2_OPTIONS, memoryCost: 64, timeCost: 1 };
}

export const hashPassword = (password: string): Promise<string> => hash(password, hashOptions);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash must fail closed, not answer 500.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Spends the same work as a real check when the user does not exist, so the answer time
 * does not tell an attacker which usernames are taken.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
  return false;
}

/** The password rules of spec 5 on every password set: BODY_INVALID with `{ password }`. */
export function assertPasswordAllowed(password: unknown, field = 'password'): string {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) {
    throw new AppError('BODY_INVALID', {
      metadata: { [field]: parsed.error.issues[0]?.message ?? 'v.invalid' },
    });
  }
  return parsed.data;
}

/** Validates, then hashes: the only way a new password reaches the database. */
export async function hashNewPassword(password: unknown, field = 'password'): Promise<string> {
  return hashPassword(assertPasswordAllowed(password, field));
}
