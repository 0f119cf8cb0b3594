import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardDay } from '@app/contract';
import { formatDate, formatDayWords, withThousands } from '@/lib/format';

type Flow = 'distributed_to_employees' | 'consumed_by_employees';

const FLOWS: { key: Flow; className: string }[] = [
  { key: 'distributed_to_employees', className: 'fill-primary' },
  { key: 'consumed_by_employees', className: 'fill-emerald-500' },
];

const HEIGHT = 160;
const LEFT = 56;
const TOP = 8;
const SLOT = 24;
const BAR = 9;

/** A round step for the value axis: 1, 2 or 5 times a power of ten, about four ticks. */
export function axisTicks(max: number): number[] {
  if (max <= 0) return [0];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? rough;
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) ticks.push(value);
  return ticks;
}

/** No day of the window moved a token. */
export const isQuiet = (daily: DashboardDay[]) =>
  daily.every(
    (day) =>
      day.tokens_from_admin === 0 &&
      day.distributed_to_employees === 0 &&
      day.purchased === 0 &&
      day.refunded === 0,
  );

/**
 * The month by day as an SVG bar chart (tokens distributed and consumed per day) with a labelled
 * value axis and day axis, and each day's values in a tooltip on hover or focus (arrow keys move
 * it). The SVG is decorative for assistive technology; the same figures are in a hidden table.
 * An empty month says so in words (`emptyText`) instead of drawing nothing.
 */
export function DailyChart({
  daily,
  emptyText,
  daysAxisLabel,
}: {
  daily: DashboardDay[];
  emptyText: string;
  daysAxisLabel: string;
}) {
  const { t, i18n } = useTranslation();
  const [active, setActive] = useState<number>();
  if (daily.length === 0 || isQuiet(daily)) {
    return (
      <p className="py-8 text-center text-sm text-muted-foreground" data-testid="chart-empty">
        {emptyText}
      </p>
    );
  }
  const max = Math.max(
    1,
    ...daily.flatMap((day) => FLOWS.map((flow) => Math.max(0, day[flow.key]))),
  );
  const ticks = axisTicks(max);
  const top = ticks[ticks.length - 1] ?? max;
  const y = (value: number) => TOP + HEIGHT - (Math.max(0, value) / top) * HEIGHT;
  const width = LEFT + daily.length * SLOT + 8;
  const shown = active === undefined ? undefined : daily[active];

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const delta = event.key === 'ArrowRight' ? 1 : -1;
      setActive((index) =>
        Math.min(daily.length - 1, Math.max(0, (index ?? (delta > 0 ? -1 : daily.length)) + delta)),
      );
    } else if (event.key === 'Escape') setActive(undefined);
  };

  return (
    <figure className="flex flex-col gap-3">
      <div className="relative">
        {/* Focusable, so a keyboard user can scroll a month wider than the screen and step days. */}
        <div
          role="region"
          aria-label={t('dashboard.daily_title')}
          tabIndex={0}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(undefined)}
          className="overflow-x-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <svg
            aria-hidden
            viewBox={`0 0 ${width} ${TOP + HEIGHT + 40}`}
            className="h-56 min-w-full"
            style={{ width: Math.max(width, 320) }}
            preserveAspectRatio="none"
            onMouseLeave={() => setActive(undefined)}
          >
            <text
              transform={`translate(12, ${TOP + HEIGHT / 2}) rotate(-90)`}
              textAnchor="middle"
              className="fill-muted-foreground text-[10px]"
              data-testid="axis-tokens"
            >
              {t('dashboard.axis_tokens')}
            </text>
            {ticks.map((tick) => (
              <g key={tick}>
                <line
                  x1={LEFT - 4}
                  x2={width}
                  y1={y(tick)}
                  y2={y(tick)}
                  className="stroke-border"
                  strokeWidth={tick === 0 ? 1 : 0.5}
                />
                <text
                  x={LEFT - 6}
                  y={y(tick) + 3}
                  textAnchor="end"
                  className="fill-muted-foreground text-[9px]"
                >
                  {withThousands(tick)}
                </text>
              </g>
            ))}
            {daily.map((day, index) => (
              <g
                key={day.date}
                transform={`translate(${LEFT + index * SLOT + 3}, 0)`}
                onMouseEnter={() => setActive(index)}
              >
                <rect
                  x={-3}
                  y={TOP}
                  width={SLOT}
                  height={HEIGHT}
                  className={index === active ? 'fill-muted' : 'fill-transparent'}
                />
                {FLOWS.map((flow, flowIndex) => {
                  const value = Math.max(0, day[flow.key]);
                  return (
                    <rect
                      key={flow.key}
                      className={flow.className}
                      x={flowIndex * BAR}
                      y={y(value)}
                      width={BAR - 1}
                      height={TOP + HEIGHT - y(value)}
                    />
                  );
                })}
                <text
                  x={BAR}
                  y={TOP + HEIGHT + 14}
                  textAnchor="middle"
                  className="fill-muted-foreground text-[9px]"
                >
                  {Number(day.date.slice(8, 10))}
                </text>
              </g>
            ))}
            <text
              x={LEFT + (daily.length * SLOT) / 2}
              y={TOP + HEIGHT + 34}
              textAnchor="middle"
              className="fill-muted-foreground text-[10px]"
              data-testid="axis-days"
            >
              {daysAxisLabel}
            </text>
          </svg>
        </div>
        {shown && (
          <div
            role="status"
            data-testid="chart-tooltip"
            className="pointer-events-none absolute top-2 right-2 rounded-md border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md"
          >
            <p className="font-medium">{formatDayWords(shown.date, i18n.language)}</p>
            {FLOWS.map((flow) => (
              <p key={flow.key} className="tabular-nums">
                {t(`dashboard.cards.${flow.key}`)}: {withThousands(shown[flow.key])}
              </p>
            ))}
          </div>
        )}
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
      {/* A table ignores a width below its content's: the box around it keeps the page narrow. */}
      <div className="sr-only">
        <table>
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
                <th scope="row">{formatDate(day.date, i18n.language)}</th>
                <td>{withThousands(day.tokens_from_admin)}</td>
                {FLOWS.map((flow) => (
                  <td key={flow.key}>{withThousands(day[flow.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
