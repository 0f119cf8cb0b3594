/**
 * Which packages a built JavaScript file is made of: each generated character is attributed, by
 * the file's source map, to the source it came from, grouped by npm package (or `app` and
 * `contract` for our own code). Gzip sizes are of each group's code compressed on its own, so
 * they add up to a little more than the file's.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** The fields of one mapping segment (source map v3, base64 VLQ). */
function decodeSegment(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char)!;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

export function packageOf(source: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (match) return match[1]!;
  if (source.includes('packages/contract/')) return '(contract)';
  if (source.includes('apps/web/')) return '(app)';
  return '(other)';
}

/** Generated code of `file`, split by package according to `file.map`. */
export function codeByPackage(file: string): Map<string, string[]> {
  const code = fs.readFileSync(file, 'utf8');
  const map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as {
    sources: string[];
    mappings: string;
  };
  const groups = new Map<string, string[]>();
  const add = (source: number, text: string) => {
    const name = source < 0 ? '(unmapped)' : packageOf(map.sources[source] ?? '');
    const list = groups.get(name) ?? [];
    list.push(text);
    groups.set(name, list);
  };
  const lines = code.split('\n');
  let source = 0;
  map.mappings.split(';').forEach((mappingLine, lineIndex) => {
    const text = lines[lineIndex] ?? '';
    let column = 0;
    let current = -1;
    let start = 0;
    for (const segment of mappingLine.split(',')) {
      if (!segment) continue;
      const fields = decodeSegment(segment);
      column += fields[0]!;
      if (column > start) add(current, text.slice(start, column));
      start = column;
      if (fields.length >= 4) {
        source += fields[1]!;
        current = source;
      } else {
        current = -1;
      }
    }
    add(current, text.slice(start));
  });
  return groups;
}

/** The heaviest packages over several files, by gzip size of their code. */
export function heaviestPackages(
  files: string[],
  top = 12,
): { name: string; bytes: number; gzipBytes: number }[] {
  const all = new Map<string, string[]>();
  for (const file of files) {
    if (!fs.existsSync(`${file}.map`)) continue;
    for (const [name, parts] of codeByPackage(file))
      all.set(name, [...(all.get(name) ?? []), ...parts]);
  }
  return [...all]
    .map(([name, parts]) => {
      const text = parts.join('');
      return {
        name,
        bytes: Buffer.byteLength(text),
        gzipBytes: zlib.gzipSync(text, { level: 9 }).length,
      };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, top);
}
