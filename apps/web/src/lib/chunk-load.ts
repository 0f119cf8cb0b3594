import { browser } from './browser';

export const CHUNK_LOAD_COUNTER_KEY = 'chunkLoadErrorCount';

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
];

/** A lazily loaded part of the app could not be fetched (usually: a new version was deployed). */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(error.message))
  );
}

function readCounter(): number {
  try {
    const value = Number(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY) ?? '0');
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

/**
 * The chunk-load rule of spec 4: when `chunkLoadErrorCount` is 0 (or absent), set it to 1 and
 * reload once; otherwise do nothing. Returns whether a reload was started.
 */
export function reloadOnceAfterChunkError(): boolean {
  if (readCounter() !== 0) return false;
  try {
    localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '1');
  } catch {
    // Without storage we cannot remember the attempt, so we must not reload (no loop).
    return false;
  }
  browser.reload();
  return true;
}

/**
 * Called once a page has rendered without a route error: the next chunk failure may reload once
 * again. Never called while an error shows, so a chunk that stays missing cannot loop reloads.
 */
export function resetChunkLoadCounter(): void {
  try {
    if (localStorage.getItem(CHUNK_LOAD_COUNTER_KEY) !== null) {
      localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '0');
    }
  } catch {
    // Storage unavailable: nothing to reset.
  }
}
