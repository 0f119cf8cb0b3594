import { describe, expect, it } from 'vitest';
import { cameraProblemOf, payCodeOf } from './camera-scanner';

describe('what the camera reads', () => {
  it('takes a QR of a pay code’s 18 digits, grouped or not, and nothing else', () => {
    expect(payCodeOf('412345678901081804')).toBe('412345678901081804');
    expect(payCodeOf('412345 678901 081804')).toBe('412345678901081804');
    expect(payCodeOf('4123-4567-8901-0818-04')).toBe('412345678901081804');
    expect(payCodeOf('41234567890108180')).toBeNull();
    expect(payCodeOf('4123456789010818045')).toBeNull();
    expect(payCodeOf('ACME · E0001')).toBeNull();
    expect(payCodeOf('https://example.com/412345678901081804')).toBeNull();
  });

  it('names why a camera did not open', () => {
    expect(cameraProblemOf(new DOMException('x', 'NotAllowedError'))).toBe('denied');
    expect(cameraProblemOf(new DOMException('x', 'SecurityError'))).toBe('denied');
    expect(cameraProblemOf(new DOMException('x', 'NotFoundError'))).toBe('missing');
    expect(cameraProblemOf(new DOMException('x', 'OverconstrainedError'))).toBe('missing');
    expect(cameraProblemOf(new DOMException('x', 'NotReadableError'))).toBe('busy');
    expect(cameraProblemOf(new Error('boom'))).toBe('failed');
    expect(cameraProblemOf('nothing')).toBe('failed');
  });
});
