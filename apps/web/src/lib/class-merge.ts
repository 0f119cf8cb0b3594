import { twMerge } from 'tailwind-merge';
import { setClassMerge } from './cn';

/** From now on `cn` lets later Tailwind classes override earlier ones (decision 0049). */
export function installClassMerge(): void {
  setClassMerge(twMerge);
}

/**
 * Builds tailwind-merge's class maps, which it does on its first call: ~20 ms of main thread on a
 * phone, that the first screen's render paid inside its longest task (the dashboard's sidebar,
 * decision 0048). The dashboard's loader calls it in a task of its own while the page's code loads.
 */
export function warmClassMerge(): void {
  twMerge('px-2 px-3');
}
