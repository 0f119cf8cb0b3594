import { holidaySchema, type Holiday } from '@app/contract';

/** A line of the file the import refuses: its number (1 = the first), its text and why. */
export interface RefusedLine {
  line: number;
  text: string;
  /** A contract validation key (`v.date_invalid`, `v.holiday_duplicate`, …) or `other_year`. */
  reason: string;
}

export interface ParsedHolidays {
  /** The days read, in date order, each with its line. */
  days: (Holiday & { line: number })[];
  refused: RefusedLine[];
}

/** The reason a line's day is of another year than the one on screen. */
export const OTHER_YEAR = 'other_year';

/** The fields of one CSV line: commas separate, double quotes enclose (`""` is a quote). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        field += char;
      }
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else {
      field += char;
    }
  }
  fields.push(field);
  return fields;
}

const isHeader = (fields: string[]) =>
  fields.length >= 2 &&
  fields[0]!.trim().toLowerCase() === 'date' &&
  fields[1]!.trim().toLowerCase() === 'name';

/**
 * Reads a holiday file, `date,name` a line (a `date,name` header allowed, blank lines skipped),
 * for `year`: each line is a day or a refusal with its reason, judged by the contract's own rules
 * (a valid date, a name of 1 to 100 characters) and the PUT's (the year's, each date once).
 */
export function parseHolidaysCsv(text: string, year: number): ParsedHolidays {
  const days: ParsedHolidays['days'] = [];
  const refused: RefusedLine[] = [];
  const seen = new Set<string>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  lines.forEach((raw, index) => {
    if (raw.trim() === '') return;
    const fields = csvFields(raw);
    if (index === 0 && isHeader(fields)) return;
    const refuse = (reason: string) => refused.push({ line: index + 1, text: raw, reason });
    const [date = '', ...rest] = fields;
    // A name holding an unquoted comma stays whole.
    const candidate = { date: date.trim(), name: rest.join(',') };
    const parsed = holidaySchema.safeParse(candidate);
    if (!parsed.success) {
      const issue = parsed.error.issues.find((i) => i.path[0] === 'date') ?? parsed.error.issues[0];
      return refuse(issue?.message ?? 'v.invalid');
    }
    if (!parsed.data.date.startsWith(`${year}-`)) return refuse(OTHER_YEAR);
    if (seen.has(parsed.data.date)) return refuse('v.holiday_duplicate');
    seen.add(parsed.data.date);
    days.push({ ...parsed.data, line: index + 1 });
  });
  days.sort((a, b) => a.date.localeCompare(b.date));
  return { days, refused };
}

/** The file's days over the list's: `replace` keeps only the file's, else the file's names win. */
export function mergeHolidays(current: Holiday[], incoming: Holiday[], replace: boolean) {
  const byDate = new Map<string, Holiday>();
  if (!replace) for (const day of current) byDate.set(day.date, day);
  for (const day of incoming) byDate.set(day.date, day);
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}
