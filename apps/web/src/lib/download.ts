import { api } from './api-client';
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

/**
 * Downloads a CSV export with the list's filters (empty ones dropped). The body is read as text,
 * so a failure's JSON envelope is parsed for the display rule and a success saved as it came.
 */
export async function downloadCsv(
  url: string,
  filters: Record<string, unknown>,
  fallbackName: string,
): Promise<void> {
  const response = await api.get<string>(url, {
    params: cleanEmptyFilters(filters),
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
export async function downloadFile(
  url: string,
  params: Record<string, unknown>,
  fallbackName: string,
): Promise<void> {
  const response = await api.get<Blob>(url, {
    params: cleanEmptyFilters(params),
    responseType: 'blob',
    headers: { Accept: 'application/pdf, application/json' },
  });
  const filename =
    filenameFromDisposition(response.headers.get('content-disposition')) ?? fallbackName;
  browser.saveFile(response.data, filename);
}
