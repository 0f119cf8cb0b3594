import { TillPage } from '@/features/till/pages/till-page';

/** /till: the merchant roles' point of sale (DESIGN 8). */
export function Component() {
  return <TillPage />;
}
