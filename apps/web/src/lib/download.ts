import { api, type ApiOperation, type ApiParams, type ApiPath } from './api-client';
import { browser } from './browser';
import { cleanEmptyFilters } from './filters';

/** `attachment; filename="orders-2026-01-31.csv"` → `orders-2026-01-31.csv`. */
export function filenameFromDisposition(header: unknown): string | undefined {
  if (typeof header !== 'string') return undefined;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // fall through to the plain filename
    }
  }
  return /filename="?([^";]+)"?/i.exec(header)?.[1]?.trim();
}

/** The GET paths whose success is a file of `media` (a CSV export, a PDF statement). */
type PathsAnswering<Media extends string> = {
  [P in ApiPath<'get'>]: ApiOperation<P, 'get'> extends {
    responses: { 200: { content: { [M in Media]: unknown } } };
  }
    ? P
    : never;
}[ApiPath<'get'>];
export type CsvPath = PathsAnswering<'text/csv'>;
export type PdfPath = PathsAnswering<'application/pdf'>;

/** The query without its empty filters (spec 5); the path as it was. */
const cleaned = (params: { path?: object; query?: object }) => ({
  ...params,
  query: cleanEmptyFilters({ ...params.query }),
});

/**
 * Downloads a CSV export with the list's filters (empty ones dropped). The body is read as text,
 * so a failure's JSON envelope is parsed for the display rule and a success saved as it came.
 */
export async function downloadCsv<P extends CsvPath>(
  path: P,
  params: ApiParams<P>,
  fallbackName: string,
): Promise<void> {
  const response = await api.get(path as CsvPath, {
    params: cleaned(params) as ApiParams<CsvPath>,
    responseType: 'text',
    headers: { Accept: 'text/csv, application/json' },
  });
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  browser.saveFile(new Blob([response.data], { type: 'text/csv;charset=utf-8' }), filename);
}

/**
 * Downloads a file the server renders (a PDF statement) as it came; a failure's JSON envelope
 * is an ApiError like any other.
 */
export async function downloadFile<P extends PdfPath>(
  path: P,
  params: ApiParams<P>,
  fallbackName: string,
): Promise<void> {
  const response = await api.get(path as PdfPath, {
    params: cleaned(params) as ApiParams<PdfPath>,
    responseType: 'blob',
    headers: { Accept: 'application/pdf, application/json' },
  });
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  browser.saveFile(response.data, filename);
}
