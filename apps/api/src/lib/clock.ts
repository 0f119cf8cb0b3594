/** The injectable clock: every "now" in the server comes from here, so tests can drive time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The system clock moved to read `start` now, running on from it at the real pace (CLOCK_START,
 * decision 0085).
 */
export function clockStartingAt(start: Date | string, real: Clock = systemClock): Clock {
  const offset = new Date(start).getTime() - real.now().getTime();
  return { now: () => new Date(real.now().getTime() + offset) };
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private current: Date;
  constructor(start: Date | string = '2026-01-15T08:00:00Z') {
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string): void {
    this.current = new Date(to);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
