import { pipeline, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { stringify } from 'csv-stringify';

/** A CSV column: its header and how a row gives its cell. */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | null | undefined;
}

/**
 * Streams rows as CSV (RFC 4180 via csv-stringify): a UTF-8 byte order mark (so spreadsheets read
 * Chinese names right), a header row, CRLF line ends, quoting where needed — a field holding a
 * comma, a quote, CR or LF — and formula injection defused: a text cell starting with = + - @,
 * a tab or a CR (or their full-width forms) gets a leading single quote. Numbers are left as
 * they are, so a negative token change stays a number.
 *
 * `rows` is pulled one batch at a time as the client reads (back-pressure), so an export never
 * sits in memory whole. A failure mid-way destroys the response rather than ending a short file
 * that could pass for complete.
 */
export function csvStream<T>(
  columns: CsvColumn<T>[],
  rows: AsyncIterable<T> | Iterable<T>,
): Readable {
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: columns.map((c, i) => ({ key: String(i), header: c.header })),
    record_delimiter: 'windows',
    // An explicit record delimiter switches this off; a lone LF or CR in a cell must be quoted too.
    quote_record_delimiter: true,
    escape_formulas: true,
  });
  async function* records() {
    for await (const row of rows) {
      yield Object.fromEntries(columns.map((c, i) => [String(i), c.value(row) ?? null]));
    }
  }
  return pipeline(Readable.from(records()), stringifier, () => undefined);
}

/** Sends a CSV stream as a download named `filename`. */
export function sendCsv(reply: FastifyReply, filename: string, body: Readable): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(body);
}

/** Today in the programme's time zone, for file names. */
export { localDate } from '../../lib/periods';

/**
 * Reads a keyset-paged source batch by batch: `fetch(after)` returns the rows after the given
 * position (undefined first) and the next position. Stops after `maxRows` rows as a last guard
 * (the services check the size before streaming).
 */
export async function* inBatches<T, P>(
  fetch: (after: P | undefined) => Promise<{ rows: T[]; next: P | undefined }>,
  maxRows: number,
): AsyncGenerator<T> {
  let after: P | undefined;
  let sent = 0;
  for (;;) {
    const { rows, next } = await fetch(after);
    for (const row of rows) {
      if (sent >= maxRows) throw new Error(`export exceeded its ${maxRows}-row cap`);
      sent += 1;
      yield row;
    }
    if (next === undefined || rows.length === 0) return;
    after = next;
  }
}
