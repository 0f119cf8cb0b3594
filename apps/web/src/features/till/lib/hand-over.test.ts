import { describe, expect, it, vi } from 'vitest';

/** The module afresh: it decides once per document, as a page load would. */
const fresh = async () => {
  vi.resetModules();
  return import('./hand-over');
};

describe("the back office's hand-over of /till to the till's page", () => {
  it('hands over, and again after the till page has loaded', async () => {
    expect((await fresh()).shouldHandOver()).toBe(true);
    // The till's page loaded (the server had it) and says so.
    (await fresh()).handedOver();
    expect((await fresh()).shouldHandOver()).toBe(true);
  });

  it('draws the till in place when the hand-over came straight back (no till page)', async () => {
    const first = await fresh();
    expect(first.shouldHandOver()).toBe(true);
    // Asked twice in one render (StrictMode): the same answer.
    expect(first.shouldHandOver()).toBe(true);
    // The reload brought the back office again: it draws the till itself, once.
    expect((await fresh()).shouldHandOver()).toBe(false);
    expect((await fresh()).shouldHandOver()).toBe(true);
  });
});
