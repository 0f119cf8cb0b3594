import { useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardDay } from '@app/contract';
import { formatDate, formatDayWords, withThousands } from '@/lib/format';

type Flow = 'distributed_to_employees' | 'consumed_by_employees';

const FLOWS: { key: Flow; className: string }[] = [
  { key: 'distributed_to_employees', className: 'bg-primary' },
  { key: 'consumed_by_employees', className: 'bg-emerald-500' },
];

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

/** The narrowest a day may be (px): a month wider than the box scrolls sideways. */
export const DAY_MIN_WIDTH = 24;
/** The value axis' column (px): its title and its widest figure. */
const AXIS_WIDTH = 64;

/**
 * The month by day as a bar chart (tokens distributed and consumed per day) with a labelled value
 * axis and day axis, and each day's values in a tooltip on hover or focus (arrow keys move it).
 *
 * Laid out by the page, not drawn in a scaled picture: the days share the box's width (each at
 * least DAY_MIN_WIDTH, the box scrolling beyond), bars are boxes with a height in percent of the
 * plot, and every label is text of the page at its own size, so no width or number of days
 * stretches a letter (issue 41; an SVG viewBox sized by the days and stretched to the box drew
 * "3,000" eleven times wide early in a month). Drawn the same on the server and in the browser:
 * nothing is measured. The chart is decorative for assistive technology; the same figures are in
 * a hidden table. An empty month says so in words (`emptyText`) instead of drawing nothing.
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
  const percent = (value: number) => `${(Math.max(0, value) / top) * 100}%`;
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
          <div
            aria-hidden
            className="flex pt-2 pr-2 text-xs text-muted-foreground"
            style={{ minWidth: AXIS_WIDTH + daily.length * DAY_MIN_WIDTH + 8 }}
            onMouseLeave={() => setActive(undefined)}
            data-testid="chart-drawing"
          >
            <div className="relative h-40 shrink-0" style={{ width: AXIS_WIDTH }}>
              <span
                className="absolute top-1/2 left-2 -translate-x-1/2 -translate-y-1/2 -rotate-90 whitespace-nowrap"
                data-testid="axis-tokens"
              >
                {t('dashboard.axis_tokens')}
              </span>
              {ticks.map((tick) => (
                <span
                  key={tick}
                  className="absolute right-2 translate-y-1/2 leading-none tabular-nums"
                  style={{ bottom: percent(tick) }}
                >
                  {withThousands(tick)}
                </span>
              ))}
            </div>
            <div className="flex min-w-0 flex-1 flex-col">
              <div className="relative h-40" data-testid="chart-plot">
                {ticks.map((tick) => (
                  <div
                    key={tick}
                    className={`absolute inset-x-0 border-t ${tick === 0 ? 'border-muted-foreground/60' : 'border-border'}`}
                    style={{ bottom: percent(tick) }}
                  />
                ))}
                <div className="absolute inset-0 flex">
                  {daily.map((day, index) => (
                    <div
                      key={day.date}
                      data-testid="chart-day"
                      className={
                        index === active
                          ? 'flex flex-1 justify-center bg-muted'
                          : 'flex flex-1 justify-center'
                      }
                      style={{ minWidth: DAY_MIN_WIDTH }}
                      onMouseEnter={() => setActive(index)}
                    >
                      {/* The bars' room, 76 % of the day's width: a padding in percent is of the
                          plot's width, not the day's, and ate every bar once a month had more
                          than about eight days (a window of 17 days drew none). */}
                      <div className="flex w-[76%] items-end justify-center gap-px">
                        {FLOWS.map((flow) => (
                          <div
                            key={flow.key}
                            className={`max-w-5 flex-1 forced-color-adjust-none ${flow.className}`}
                            style={{ height: percent(day[flow.key]) }}
                          />
                        ))}
                      </div>
                    </div>
                  ))}
                </div>
              </div>
              <div className="flex pt-1.5">
                {daily.map((day) => (
                  <span
                    key={day.date}
                    className="flex-1 text-center tabular-nums"
                    style={{ minWidth: DAY_MIN_WIDTH }}
                  >
                    {Number(day.date.slice(8, 10))}
                  </span>
                ))}
              </div>
              <p className="pt-1.5 text-center" data-testid="axis-days">
                {daysAxisLabel}
              </p>
            </div>
          </div>
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
            <span aria-hidden className={`size-3 forced-color-adjust-none ${flow.className}`} />
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
