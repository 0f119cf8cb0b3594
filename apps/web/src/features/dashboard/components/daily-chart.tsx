import { useTranslation } from 'react-i18next';
import type { DashboardDay } from '@app/contract';
import { formatDate, withThousands } from '@/lib/format';

type Flow = 'distributed_to_employees' | 'consumed_by_employees';

const FLOWS: { key: Flow; className: string }[] = [
  { key: 'distributed_to_employees', className: 'fill-primary' },
  { key: 'consumed_by_employees', className: 'fill-emerald-500' },
];

const HEIGHT = 160;

/**
 * The month by day as a plain SVG bar chart (tokens distributed and consumed per day). The SVG is
 * decorative for assistive technology; the same figures are in a visually hidden table.
 */
export function DailyChart({ daily }: { daily: DashboardDay[] }) {
  const { t } = useTranslation();
  if (daily.length === 0) {
    return (
      <p className="py-8 text-center text-sm text-muted-foreground">{t('dashboard.no_activity')}</p>
    );
  }
  const max = Math.max(
    1,
    ...daily.flatMap((day) => FLOWS.map((flow) => Math.max(0, day[flow.key]))),
  );
  const slot = 24;
  const bar = 9;
  const width = daily.length * slot;
  return (
    <figure className="flex flex-col gap-3">
      {/* Focusable, so a keyboard user can scroll a month wider than the screen. */}
      <div
        role="region"
        aria-label={t('dashboard.daily_title')}
        tabIndex={0}
        className="overflow-x-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <svg
          aria-hidden
          viewBox={`0 0 ${width} ${HEIGHT + 20}`}
          className="h-48 min-w-full"
          style={{ width: Math.max(width, 320) }}
          preserveAspectRatio="none"
        >
          {daily.map((day, index) => (
            <g key={day.date} transform={`translate(${index * slot + 3}, 0)`}>
              {FLOWS.map((flow, flowIndex) => {
                const value = Math.max(0, day[flow.key]);
                const height = (value / max) * HEIGHT;
                return (
                  <rect
                    key={flow.key}
                    className={flow.className}
                    x={flowIndex * bar}
                    y={HEIGHT - height}
                    width={bar - 1}
                    height={height}
                  >
                    <title>{`${formatDate(day.date)} ${t(`dashboard.cards.${flow.key}`)}: ${withThousands(day[flow.key])}`}</title>
                  </rect>
                );
              })}
              <text
                x={bar}
                y={HEIGHT + 14}
                textAnchor="middle"
                className="fill-muted-foreground text-[9px]"
              >
                {day.date.slice(8, 10)}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <figcaption className="flex flex-wrap gap-4 text-sm text-muted-foreground">
        {FLOWS.map((flow) => (
          <span key={flow.key} className="flex items-center gap-2">
            <svg aria-hidden width="12" height="12">
              <rect width="12" height="12" className={flow.className} />
            </svg>
            {t(`dashboard.cards.${flow.key}`)}
          </span>
        ))}
      </figcaption>
      <table className="sr-only">
        <caption>{t('dashboard.daily_title')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('dashboard.date')}</th>
            <th scope="col">{t('dashboard.cards.tokens_from_admin')}</th>
            {FLOWS.map((flow) => (
              <th key={flow.key} scope="col">
                {t(`dashboard.cards.${flow.key}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {daily.map((day) => (
            <tr key={day.date}>
              <th scope="row">{formatDate(day.date)}</th>
              <td>{withThousands(day.tokens_from_admin)}</td>
              {FLOWS.map((flow) => (
                <td key={flow.key}>{withThousands(day[flow.key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
