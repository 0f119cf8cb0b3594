import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { dateLanguage, ISO_DATE_FORMAT } from '@/lib/format';

// Strict parsing by format: here, not in lib/format, so the first load (sign-in) does not carry it.
dayjs.extend(customParseFormat);

const YEAR_MIN = 1970;
const YEAR_MAX = 9999;

/**
 * A day typed in the language's format (the one formatDate writes), read back as YYYY-MM-DD; a
 * day or month may have one digit, and `/`, `-` or `.` separate them. The wire form YYYY-MM-DD is
 * read in either language. Null for anything else, or for a day the calendar lacks (31/02/2026).
 */
export function parseDate(text: string, lang?: string): string | null {
  const trimmed = text
    .trim()
    .replace(/[.-]/g, '/')
    .replace(/[年月]/g, '/')
    .replace(/日$/, '');
  const patterns =
    dateLanguage(lang) === 'zh'
      ? ['YYYY/M/D', 'YYYY/MM/DD']
      : ['D/M/YYYY', 'DD/MM/YYYY', 'YYYY/M/D', 'YYYY/MM/DD'];
  const parsed = dayjs(trimmed, patterns, true);
  if (!parsed.isValid()) return null;
  const day = parsed.format(ISO_DATE_FORMAT);
  // Strict parsing refuses days the calendar lacks; the years are the contract's (calendar.ts).
  return parsed.year() >= YEAR_MIN && parsed.year() <= YEAR_MAX ? day : null;
}
