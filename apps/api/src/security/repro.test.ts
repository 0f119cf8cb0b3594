import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { injectAs, type TestSession } from '../../test/auth';
import { signedIn } from '../../test/management';

describe('repro', () => {
  let t: TestApp;
  let admin: TestSession;
  beforeAll(async () => {
    t = await createTestApp('pglite', {}, { logger: { level: 'error' } });
    const { buildProgramme } = await import('../../test/reporting');
    await buildProgramme(t);
    admin = (await signedIn(t, 'admin')).session;
  });
  afterAll(() => t.close());
  it('shows', async () => {
    const urls = [
      '/api/v1/dashboard?month=9999-12',
      '/api/v1/tokens/transactions?date_to=9999-12-31',
      '/api/v1/exports/transactions?date_to=9999-12-31',
      '/api/v1/orders/admin?date_to=9999-12-31',
      '/api/v1/exports/orders?date_to=9999-12-31',
      '/api/v1/audit-log?date_to=9999-12-31',
      '/api/v1/tokens/transactions?cursor=AAAA',
      '/api/v1/tokens/transactions?cursor=eyJhIjoxfQ',
      '/api/v1/orders/admin?cursor=eyJhIjoxfQ',
      '/api/v1/orders/admin?cursor=AAAA',
      '/api/v1/tokens/transactions?date_from=2026-02-31',
      '/api/v1/audit-log?date_from=2026-02-31',
      '/api/v1/orders/admin?date_from=2026-02-31',
      '/api/v1/reports/summary?month=0000-01',
      '/api/v1/reports/summary?month=9999-12',
      '/api/v1/audit-log?date_from=0000-01-01',
      '/api/v1/tokens/transactions?date_from=0000-01-01',
    ];
    for (const url of urls) {
      const r = await injectAs(t.app, admin, { url });
      console.log(url, r.statusCode, r.body.slice(0, 200));
    }
  });
});
