import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { createUser, injectAs, signIn } from '../test/auth';
import { testDatabaseKinds } from '../test/databases';

/** A pino destination that keeps every line. */
class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

describe.each(await testDatabaseKinds())('structured logs on %s', (kind) => {
  let t: TestApp;
  const capture = new Capture();
  beforeAll(async () => {
    t = await createTestApp(kind, {}, { logger: { stream: capture, level: 'info' } });
  });
  afterAll(() => t.close());

  it('logs a sign-in as JSON without the password, session id or CSRF token', async () => {
    const user = await createUser(t.db.database.db, { type: 'admin', password: 'Secr3t-Pa55!' });
    const session = await signIn(t.app, user.username, 'Secr3t-Pa55!');
    await injectAs(t.app, session, { url: '/api/v1/iam/self-info' });
    await injectAs(t.app, session, { method: 'POST', url: '/api/v1/iam/logout' });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/iam/login',
      payload: { username: user.username, password: 'Wr0ng-Secret!' },
    });

    // The capture did see the traffic, as JSON lines …
    const entries = capture.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((e) => e.msg === 'incoming request')).toBe(true);
    expect(entries.some((e) => e.msg === 'signed in' && e.userId === user.id)).toBe(true);
    expect(
      entries.some((e) => e.msg === 'request refused' && e.code === 'INVALID_CREDENTIALS'),
    ).toBe(true);
    // … and none of the secrets.
    for (const secret of [
      'Secr3t-Pa55!',
      'Wr0ng-Secret!',
      session.sessionCookie.value,
      session.xsrf,
    ]) {
      expect(capture.text).not.toContain(secret);
    }
  });

  it('redacts passwords and API keys even in objects logged carelessly', async () => {
    // Fastify's request serializer already drops headers; redaction is the second fence.
    t.app.log.info({ body: { username: 'x', password: 'Careless-Pa55' } }, 'careless body');
    t.app.log.info({ terminal: { code: 'T1', api_key: 'tk_live_secret' } }, 'careless key');
    const lines = capture.lines.filter((l) => l.includes('careless'));
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toMatch(/Careless-Pa55|tk_live_secret/);
    expect(JSON.parse(lines[0]!).body).toEqual({ username: 'x', password: '[Redacted]' });
  });
});
