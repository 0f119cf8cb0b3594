import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { testDatabaseKinds } from '../../test/databases';
import { envelopeProblem } from '../../test/http';

describe.each(await testDatabaseKinds())('an app shutting down on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('is ready, then not ready and refusing new work once shutdown begins', async () => {
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    expect(t.app.lifecycle.shuttingDown).toBe(false);
    // Nothing in flight: the drain is over at once.
    await t.app.lifecycle.beginShutdown();
    expect(t.app.lifecycle.inFlight).toBe(0);

    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'up', shutting_down: true });
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);

    for (const url of ['/api/v1/iam/self-info', '/metrics', '/api/v1/nowhere']) {
      const res = await t.app.inject({ url });
      expect(envelopeProblem(res, ['SERVICE_UNAVAILABLE'])).toBeNull();
      expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(res.headers['retry-after']).toBe('1');
      expect(res.headers.connection).toBe('close');
    }
  });
});
