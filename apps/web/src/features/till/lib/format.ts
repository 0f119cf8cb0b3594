const pad = (value: number) => String(value).padStart(2, '0');

/**
 * An order's local date and time as lib/format.ts's formatDateTime writes it (31/01/2026 14:05 in
 * English, 2026-01-31 14:05 in Chinese), without its date library: the till's first load leaves
 * dayjs out (format.test.ts holds the two equal).
 */
export function tillDateTime(iso: string, lang: string | undefined): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const day = pad(date.getDate());
  const month = pad(date.getMonth() + 1);
  const year = String(date.getFullYear());
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return lang?.startsWith('zh')
    ? `${year}-${month}-${day} ${time}`
    : `${day}/${month}/${year} ${time}`;
}
