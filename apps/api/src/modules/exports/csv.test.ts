import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { localTime } from '../../lib/periods';
import { csvStream, inBatches, type CsvColumn } from './csv';

interface Row {
  name: string | null;
  amount: number;
}
const columns: CsvColumn<Row>[] = [
  { header: 'name', value: (r) => r.name },
  { header: 'amount', value: (r) => r.amount },
];
// Read as bytes: a TextDecoder would drop the byte order mark this checks for.
const text = async (stream: Readable) => (await buffer(stream)).toString('utf8');
const csvOf = (rows: Row[]) => text(csvStream(columns, rows));
const BOM = '\uFEFF';

describe('csvStream', () => {
  it('writes a byte order mark, a header row and CRLF line ends', async () => {
    const csv = await csvOf([
      { name: 'Ann', amount: 5 },
      { name: null, amount: -3 },
    ]);
    expect(csv).toBe(`${BOM}name,amount\r\nAnn,5\r\n,-3\r\n`);
  });

  it('escapes cells that a spreadsheet would run as a formula', async () => {
    const names = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTAB',
      '\rCR',
      '＝1+1',
    ];
    const csv = await csvOf(names.map((name) => ({ name, amount: 1 })));
    const cells = parse(csv, { bom: true, columns: true }) as { name: string }[];
    expect(cells.map((c) => c.name)).toEqual(names.map((n) => `'${n}`));
    // The formula's own quotes are doubled inside a quoted field.
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",1\r\n`);
  });

  it('leaves numbers, negative ones too, and harmless text alone', async () => {
    const csv = await csvOf([
      { name: 'a-b', amount: -10 },
      { name: 'x=1', amount: 0 },
    ]);
    expect(csv).toBe(`${BOM}name,amount\r\na-b,-10\r\nx=1,0\r\n`);
  });

  it('quotes commas, quotes and line breaks so they read back unchanged', async () => {
    const names = ['Lee, Ann', 'say "hi"', 'two\nlines', 'cr\rinside', 'crlf\r\nend', '张三'];
    const csv = await csvOf(names.map((name) => ({ name, amount: 2 })));
    const cells = parse(csv, { bom: true, columns: true }) as { name: string }[];
    expect(cells.map((c) => c.name)).toEqual(names);
  });

  it('writes only the header when there are no rows', async () => {
    expect(await csvOf([])).toBe(`${BOM}name,amount\r\n`);
  });

  it('pulls rows batch by batch as they are read, in order', async () => {
    const fetched: (number | undefined)[] = [];
    const source = inBatches<Row, number>(async (after) => {
      fetched.push(after);
      const start = after ?? 0;
      const rows = Array.from({ length: Math.max(0, Math.min(3, 7 - start)) }, (_, i) => ({
        name: `r${start + i}`,
        amount: start + i,
      }));
      return { rows, next: rows.length === 3 ? start + 3 : undefined };
    }, 100);
    const csv = await text(csvStream(columns, source));
    const cells = parse(csv, { bom: true, columns: true }) as { amount: string }[];
    expect(cells.map((c) => Number(c.amount))).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(fetched).toEqual([undefined, 3, 6]);
  });

  it('fails the stream rather than pass the cap', async () => {
    const source = inBatches<Row, number>(
      async (after) => ({
        rows: [{ name: 'x', amount: after ?? 0 }],
        next: (after ?? 0) + 1,
      }),
      5,
    );
    await expect(text(csvStream(columns, source))).rejects.toThrow(/cap/);
  });
});

describe('localTime', () => {
  it('writes an instant as wall-clock time in the programme time zone', () => {
    expect(localTime('2026-01-31T16:00:00.000Z', 'Asia/Shanghai')).toBe('2026-02-01 00:00:00');
    expect(localTime(null, 'UTC')).toBe('');
  });
});
