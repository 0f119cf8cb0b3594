import { describe, expect, it, vi } from 'vitest';
import { browser } from './browser';
import {
  CHUNK_LOAD_COUNTER_KEY,
  isChunkLoadError,
  reloadOnceAfterChunkError,
  resetChunkLoadCounter,
} from './chunk-load';

describe('chunk-load errors', () => {
  it('recognises the messages browsers give for a missing chunk', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('allows one automatic reload until a successful load resets the counter', () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    expect(reloadOnceAfterChunkError()).toBe(true);
    expect(reloadOnceAfterChunkError()).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);

    resetChunkLoadCounter();
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('0');
    expect(reloadOnceAfterChunkError()).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('leaves no counter behind when there was nothing to reset', () => {
    resetChunkLoadCounter();
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBeNull();
  });
});
