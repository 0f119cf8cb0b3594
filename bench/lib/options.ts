import { FULL_SIZE, SMALL_SIZE, TINY_SIZE, TRIPLE_SIZE, type ProgrammeSize } from './programme';

const SIZES = { full: FULL_SIZE, triple: TRIPLE_SIZE, small: SMALL_SIZE, tiny: TINY_SIZE };
type SizeName = keyof typeof SIZES;

/** `--name value` and `--flag` arguments, over BENCH_* environment variables, over defaults. */
export function argument(name: string): string | undefined {
  const args = process.argv.slice(2);
  const index = args.indexOf(`--${name}`);
  if (index >= 0) {
    const value = args[index + 1];
    return value === undefined || value.startsWith('--') ? 'true' : value;
  }
  return process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
}

export function sizeOption(): { name: SizeName; size: ProgrammeSize } {
  const name = argument('size') ?? 'full';
  if (!(name in SIZES)) throw new Error(`--size must be full, triple, small or tiny, not ${name}`);
  return { name: name as SizeName, size: SIZES[name as SizeName] };
}

export function seedOption(): number {
  const seed = Number(argument('seed') ?? 42);
  if (!Number.isSafeInteger(seed)) throw new Error('--seed must be an integer');
  return seed;
}

/** The end of the history: `--until`, else midnight UTC today, so a day's runs agree. */
export function untilOption(now = new Date()): Date {
  const given = argument('until');
  const until = given
    ? new Date(given)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (Number.isNaN(until.getTime())) throw new Error(`--until is not a date: ${given}`);
  return until;
}
