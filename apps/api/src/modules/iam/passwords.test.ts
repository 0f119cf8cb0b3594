import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

describe('password hashes', () => {
  it('are argon2id at the OWASP baseline (19 MiB, 2 passes, 1 lane) in a process that is not a test', async () => {
    const script =
      "const { hashPassword } = await import('./src/modules/iam/passwords.ts');" +
      "process.stdout.write(await hashPassword('N3w-Password'));";
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { cwd: API_DIR },
    );
    expect(stdout).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stdout, 'N3w-Password')).toBe(true);
    expect(await verifyPassword(stdout, 'n3w-Password')).toBe(false);
  });

  it('are made at the least cost inside the test workers (test/setup.ts)', async () => {
    expect(await hashPassword('N3w-Password')).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
  });
});
