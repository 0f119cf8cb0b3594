import type { i18n as I18n } from 'i18next';
import { snakeToWords } from '@/lib/format';

export interface BreadcrumbSegment {
  /** The raw (decoded) path part. */
  segment: string;
  /** The path up to and including this part. */
  href: string;
}

/** One segment per path part (spec 2). */
export function breadcrumbSegments(pathname: string): BreadcrumbSegment[] {
  const parts = pathname.split('/').filter(Boolean);
  return parts.map((part, index) => {
    let segment = part;
    try {
      segment = decodeURIComponent(part);
    } catch {
      // keep the raw part
    }
    return { segment, href: `/${parts.slice(0, index + 1).join('/')}` };
  });
}

const KNOWN_SEGMENT = /^[a-z0-9_-]+$/i;

/**
 * A segment's label: the catalogue's `breadcrumb.segments.<part>` when there is one (`user` →
 * User Management, `role` → Role Management, the screens in Chinese), otherwise the part with
 * dashes and underscores turned into capitalised words.
 */
export function segmentLabel(segment: string, i18n: Pick<I18n, 'exists' | 't'>): string {
  const key = `breadcrumb.segments.${segment}`;
  if (KNOWN_SEGMENT.test(segment) && i18n.exists(key)) return i18n.t(key);
  return snakeToWords(segment) || segment;
}
