import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { cn } from '@/lib/cn';

export type OrderHistoryView = 'orders' | 'declined';
const VIEWS: OrderHistoryView[] = ['orders', 'declined'];

/**
 * Orders and Declined: two views of the order history, each its own address (links, so they
 * open in a new tab too and say which one is current). Each view keeps its own filters.
 */
export function OrderHistoryTabs({ view }: { view: OrderHistoryView }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('declines.tabs_label')} className="mb-4 flex gap-1 border-b">
      {VIEWS.map((name) => (
        <Link
          key={name}
          to={paths.orderHistory.getHref(name === 'declined' ? { view: name } : {})}
          aria-current={view === name ? 'page' : undefined}
          className={cn(
            '-mb-px rounded-t-sm border-b-2 px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
            view === name
              ? 'border-primary font-medium'
              : 'border-transparent text-muted-foreground hover:text-foreground',
          )}
        >
          {t(`declines.tab_${name}`)}
        </Link>
      ))}
    </nav>
  );
}
