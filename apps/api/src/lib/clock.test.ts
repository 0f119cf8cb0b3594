// CLOCK_START and CLOCK_FROZEN (decision 0085): the clock a test server reads.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { clockOf } from '../start';
import { clockStartingAt, ManualClock, systemClock } from './clock';

describe('the server clock', () => {
  it('is the system clock unless CLOCK_START is set', () => {
    expect(clockOf(loadConfig({}))).toBe(systemClock);
  });

  it('starts at CLOCK_START and runs on at the real pace', () => {
    const real = new ManualClock('2026-12-03T13:00:00Z');
    const clock = clockStartingAt('2026-03-03T10:00:00Z', real);
    expect(clock.now().toISOString()).toBe('2026-03-03T10:00:00.000Z');
    real.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-03-03T10:01:30.000Z');
    const configured = clockOf(loadConfig({ CLOCK_START: '2026-03-03T10:00:00Z' }));
    expect(Math.abs(configured.now().getTime() - Date.parse('2026-03-03T10:00:00Z'))).toBeLessThan(
      60_000,
    );
  });

  it('stays at CLOCK_START with CLOCK_FROZEN, which needs it', async () => {
    const clock = clockOf(
      loadConfig({ CLOCK_START: '2026-03-03T10:00:00Z', CLOCK_FROZEN: 'true' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(clock.now().toISOString()).toBe('2026-03-03T10:00:00.000Z');
    expect(() => loadConfig({ CLOCK_FROZEN: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ CLOCK_START: 'yesterday' })).toThrow(ConfigError);
  });
});
