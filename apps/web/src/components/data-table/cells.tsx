import { useTranslation } from 'react-i18next';
import type { Status } from '@app/contract';
import { Badge } from '@/components/ui/badge';
import { formatDateTime, withThousands } from '@/lib/format';

/** Spec 3: active shows green, inactive red. */
export function StatusBadge({ status }: { status: Status }) {
  const { t } = useTranslation();
  return (
    <Badge variant={status === 'active' ? 'success' : 'destructive'} data-status={status}>
      {t(`statuses.${status}`)}
    </Badge>
  );
}

/** A token amount with thousands separators (spec 9). */
export function Tokens({ value }: { value: number | null | undefined }) {
  if (value === null || value === undefined)
    return <span className="text-muted-foreground">—</span>;
  return <span className="whitespace-nowrap tabular-nums">{withThousands(value)}</span>;
}

/** A moment as DD/MM/YYYY HH:mm (spec 9), in a <time> element. */
export function DateTime({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return (
    // May break between the day and the time: a narrow column takes two lines, not more width.
    <time dateTime={value} className="tabular-nums">
      {formatDateTime(value)}
    </time>
  );
}
