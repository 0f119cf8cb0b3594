import { useSyncExternalStore } from 'react';
import { drawnPage } from '@/lib/drawn-page';

/** Spec 9: below 768px the sidebar becomes a sheet. */
export const MOBILE_BREAKPOINT = 768;
const QUERY = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

const getSnapshot = (): boolean =>
  typeof window.matchMedia === 'function' ? window.matchMedia(QUERY).matches : false;

/** For the page the server drew and its hydration, what it was drawn for (lib/drawn-page.ts). */
const getServerSnapshot = (): boolean => drawnPage()?.phone ?? false;

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
}
