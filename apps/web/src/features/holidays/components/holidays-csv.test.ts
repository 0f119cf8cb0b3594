import { describe, expect, it } from 'vitest';
import { csvFields, mergeHolidays, OTHER_YEAR, parseHolidaysCsv } from './holidays-csv';

describe('the holiday file', () => {
  it('reads date,name lines, skipping the header and blank lines, in date order', () => {
    const parsed = parseHolidaysCsv(
      '\uFEFFdate,name\r\n2026-05-01,Labour Day\r\n\r\n2026-01-01, New Year \n',
      2026,
    );
    expect(parsed.days).toEqual([
      { date: '2026-01-01', name: 'New Year', line: 4 },
      { date: '2026-05-01', name: 'Labour Day', line: 2 },
    ]);
    expect(parsed.refused).toEqual([]);
  });

  it('keeps quoted commas and quotes, and an unquoted comma in the name', () => {
    expect(csvFields('2026-12-25,"Christmas, ""the"" day"')).toEqual([
      '2026-12-25',
      'Christmas, "the" day',
    ]);
    expect(parseHolidaysCsv('2026-12-26,Boxing Day, observed', 2026).days).toEqual([
      { date: '2026-12-26', name: 'Boxing Day, observed', line: 1 },
    ]);
  });

  it("refuses each bad line with the contract's reason and its line number", () => {
    const parsed = parseHolidaysCsv(
      [
        'date,name',
        '2026-02-30,Nope',
        '01/05/2026,Labour Day',
        '2027-01-01,New Year',
        '2026-10-01,National Day',
        '2026-10-01,Again',
        `2026-06-01,${'x'.repeat(101)}`,
        '2026-07-01,',
      ].join('\n'),
      2026,
    );
    expect(parsed.days).toEqual([{ date: '2026-10-01', name: 'National Day', line: 5 }]);
    expect(parsed.refused.map(({ line, reason }) => [line, reason])).toEqual([
      [2, 'v.date_invalid'],
      [3, 'v.date_invalid'],
      [4, OTHER_YEAR],
      [6, 'v.holiday_duplicate'],
      [7, 'v.holiday_name_max'],
      [8, 'v.required'],
    ]);
    expect(parsed.refused[2]?.text).toBe('2027-01-01,New Year');
  });

  it("adds the file's days to the list (its names win) or replaces the list", () => {
    const current = [
      { date: '2026-01-01', name: 'New Year' },
      { date: '2026-05-01', name: 'May Day' },
    ];
    const incoming = [
      { date: '2026-05-01', name: 'Labour Day' },
      { date: '2026-03-01', name: 'Spring' },
    ];
    expect(mergeHolidays(current, incoming, false)).toEqual([
      { date: '2026-01-01', name: 'New Year' },
      { date: '2026-03-01', name: 'Spring' },
      { date: '2026-05-01', name: 'Labour Day' },
    ]);
    expect(mergeHolidays(current, incoming, true)).toEqual([
      { date: '2026-03-01', name: 'Spring' },
      { date: '2026-05-01', name: 'Labour Day' },
    ]);
  });
});
