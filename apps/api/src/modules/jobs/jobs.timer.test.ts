import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app';
import { testDatabaseKinds } from '../../../test/databases';
import { queryRows } from '../../db/client';
import { getCurrentSystemPeriod } from '../system';
import { startJobTimer } from './jobs.timer';

describe.each(await testDatabaseKinds())('the jobs timer on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind, { JOBS_INTERVAL_SECONDS: '3600' });
  });
  afterAll(() => t.close());

  // Read straight from the table: every /sys/* read would advance the periods itself.
  const storedPeriods = () =>
    queryRows<{ period: string; is_current: boolean }>(
      t.db.database.db,
      sql`SELECT period, ends_at IS NULL AS is_current FROM system_periods ORDER BY period`,
    );

  it('opens the system periods that are due when nobody reads them', async () => {
    t.clock.set('2026-01-15T10:00:00Z');
    expect((await getCurrentSystemPeriod(t.app.deps)).period).toBe('2026-01');
    t.clock.set('2026-03-01T00:00:00Z');
    expect(await storedPeriods()).toEqual([{ period: '2026-01', is_current: true }]);

    const stop = startJobTimer(t.app);
    await stop(); // waits for the run the timer starts at once

    expect(await storedPeriods()).toEqual([
      { period: '2026-01', is_current: false },
      { period: '2026-02', is_current: false },
      { period: '2026-03', is_current: true },
    ]);
  });
});
