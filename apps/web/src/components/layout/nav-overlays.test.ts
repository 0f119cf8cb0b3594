import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPointerRelease } from './nav-overlays';

describe('afterPointerRelease', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('applies at once when no pointer button is held', () => {
    const apply = vi.fn();
    afterPointerRelease(apply);
    expect(apply).toHaveBeenCalledTimes(1);
  });

  it('waits for the release and the click it makes, then applies once', () => {
    vi.useFakeTimers();
    const apply = vi.fn();
    const clicked = vi.fn(() => expect(apply).not.toHaveBeenCalled());
    window.addEventListener('click', clicked);
    window.dispatchEvent(new Event('pointerdown'));
    afterPointerRelease(apply);
    expect(apply).not.toHaveBeenCalled();
    // The press ends: pointerup, then the click, in one task; the swap comes after both.
    window.dispatchEvent(new Event('pointerup'));
    window.dispatchEvent(new Event('click'));
    expect(apply).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(apply).toHaveBeenCalledTimes(1);
    // Released: the next one applies at once, and the earlier one not again.
    afterPointerRelease(apply);
    expect(apply).toHaveBeenCalledTimes(2);
    window.removeEventListener('click', clicked);
  });

  it('applies after a cancelled press too', () => {
    vi.useFakeTimers();
    const apply = vi.fn();
    window.dispatchEvent(new Event('pointerdown'));
    afterPointerRelease(apply);
    window.dispatchEvent(new Event('pointercancel'));
    vi.runAllTimers();
    expect(apply).toHaveBeenCalledTimes(1);
  });
});
