/** Minimal cookie helpers for the two client cookies we own: `lang` and `sidebar_state`. */

/**
 * The Cookie header of the request a page is being rendered for on the server (src/prerender.tsx,
 * decision 0050), which has no document; undefined the rest of the time.
 */
let serverCookieHeader: string | undefined;

export function setServerCookieHeader(header: string | undefined): void {
  serverCookieHeader = header;
}

export function readCookie(name: string): string | undefined {
  const prefix = `${encodeURIComponent(name)}=`;
  const cookies = serverCookieHeader ?? document.cookie;
  for (const part of cookies.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return undefined;
}

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax`;
}
