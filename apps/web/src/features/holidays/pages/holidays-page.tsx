import { useMemo, useState } from 'react';
import { CalendarOff, LoaderCircle, Pencil, Plus, Trash2, Undo2 } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { Holiday } from '@app/contract';
import { DetailError } from '@/components/layout/detail-layout';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { confirmAlert } from '@/lib/alert-store';
import { formatDayLong } from '@/lib/format';
import { useHolidays } from '../api/get-holidays';
import { usePutHolidays } from '../api/put-holidays';
import { HolidayDayDialog, type HolidayDialogState } from '../components/holiday-day-dialog';
import { mergeHolidays } from '../components/holidays-csv';
import { HolidaysCsvImport } from '../components/holidays-csv-import';

/** The years the picker offers: five either side of this one, and the one on screen. */
export function holidayYears(year: number, thisYear = new Date().getFullYear()): number[] {
  const years = new Set<number>();
  for (let y = Math.max(2000, thisYear - 5); y <= Math.min(2100, thisYear + 5); y += 1)
    years.add(y);
  years.add(year);
  return [...years].sort((a, b) => a - b);
}

const sameDays = (a: Holiday[], b: Holiday[]) =>
  a.length === b.length && a.every((day, i) => day.date === b[i]?.date && day.name === b[i]?.name);

const byDate = (days: Holiday[]) => [...days].sort((a, b) => a.date.localeCompare(b.date));

/**
 * Holidays (/holidays, admin; DESIGN 7): the public holidays of a year, which a company's rules
 * may close its tokens on. The days are edited here (added, renamed, removed, or read from a CSV
 * file) and saved together: Save replaces the year's days, after a confirmation when it removes
 * some that were saved.
 */
export function HolidaysPage({ year, onYear }: { year: number; onYear: (year: number) => void }) {
  const { t, i18n } = useTranslation();
  const holidays = useHolidays(year);
  const save = usePutHolidays();
  // The unsaved list of the year on screen; null = the saved days.
  const [draft, setDraft] = useState<{ year: number; days: Holiday[] } | null>(null);
  const [dialog, setDialog] = useState<HolidayDialogState>(null);
  const saved = holidays.data?.days;
  const days = useMemo(
    () => (draft?.year === year ? draft.days : (saved ?? [])),
    [draft, year, saved],
  );
  const isDirty = saved !== undefined && draft?.year === year && !sameDays(draft.days, saved);
  const edit = (next: Holiday[]) => setDraft({ year, days: byDate(next) });

  const pickYear = async (value: string) => {
    const next = Number(value);
    if (next === year) return;
    if (isDirty) {
      const discard = await confirmAlert({
        id: `holidays-discard-${year}`,
        titleKey: 'holidays.discard_title',
        messageKey: 'holidays.discard_message',
        values: { year },
        confirmKey: 'holidays.discard',
        cancelKey: 'actions.cancel',
        destructive: true,
      });
      if (!discard) return;
    }
    setDraft(null);
    onYear(next);
  };

  const onSave = async () => {
    if (!saved) return;
    const kept = new Set(days.map((day) => day.date));
    const removed = saved.filter((day) => !kept.has(day.date));
    if (removed.length > 0) {
      const confirmed = await confirmAlert({
        id: `holidays-remove-${year}`,
        titleKey: 'holidays.remove_title',
        messageKey: 'holidays.remove_message',
        values: {
          year,
          count: removed.length,
          days: removed
            .map((day) => `${formatDayLong(day.date, i18n.language)} (${day.name})`)
            .join('; '),
        },
        confirmKey: 'holidays.save_anyway',
        cancelKey: 'actions.cancel',
        destructive: true,
      });
      if (!confirmed) return;
    }
    save.mutate(
      { year, days },
      {
        onSuccess: (result) => {
          setDraft(null);
          toast.success(t('holidays.saved', { year: result.year, count: result.days.length }));
        },
      },
    );
  };

  return (
    <>
      <PageHeader
        title={t('holidays.title')}
        description={t('holidays.description')}
        actions={
          <div className="flex items-center gap-2">
            <Label htmlFor="holidays-year">{t('holidays.year')}</Label>
            <Select value={String(year)} onValueChange={(value) => void pickYear(value)}>
              <SelectTrigger id="holidays-year" className="w-28">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {holidayYears(year).map((y) => (
                  <SelectItem key={y} value={String(y)}>
                    {y}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        }
      />
      <div className="grid gap-6">
        <Card>
          <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="grid gap-1.5">
              <CardTitle>
                <h2 id="holidays-days-heading">{t('holidays.days_title', { year })}</h2>
              </CardTitle>
              <CardDescription>
                {isDirty ? t('holidays.unsaved') : t('holidays.days_description')}
              </CardDescription>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                disabled={!saved}
                onClick={() => setDialog({ mode: 'add' })}
              >
                <Plus aria-hidden />
                {t('holidays.add')}
              </Button>
              {isDirty && (
                <Button variant="ghost" onClick={() => setDraft(null)}>
                  <Undo2 aria-hidden />
                  {t('holidays.undo')}
                </Button>
              )}
              <Button disabled={!isDirty || save.isPending} onClick={() => void onSave()}>
                {save.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
                {save.isPending ? t('actions.saving') : t('actions.save')}
              </Button>
            </div>
          </CardHeader>
          <CardContent>
            {holidays.isPending ? (
              <div className="grid gap-2" aria-busy="true" data-testid="holidays-loading">
                <Skeleton className="h-9 w-full" />
                <Skeleton className="h-9 w-full" />
                <Skeleton className="h-9 w-full" />
              </div>
            ) : holidays.isError ? (
              <DetailError error={holidays.error} onRetry={() => void holidays.refetch()} />
            ) : days.length === 0 ? (
              <div className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
                <CalendarOff className="size-8" aria-hidden />
                <p>{t('holidays.empty', { year })}</p>
              </div>
            ) : (
              <div className="overflow-x-auto rounded-md border">
                <Table>
                  <TableCaption className="sr-only">
                    {t('holidays.days_title', { year })}
                  </TableCaption>
                  <TableHeader>
                    <TableRow>
                      <TableHead>{t('holidays.date')}</TableHead>
                      <TableHead>{t('holidays.name')}</TableHead>
                      <TableHead className="w-24 text-right">
                        <span className="sr-only">{t('table.actions')}</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {days.map((day, index) => (
                      <TableRow key={day.date}>
                        <TableCell className="tabular-nums">
                          <time dateTime={day.date}>{formatDayLong(day.date, i18n.language)}</time>
                        </TableCell>
                        <TableCell className="break-words whitespace-normal">{day.name}</TableCell>
                        <TableCell className="text-right whitespace-nowrap">
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8"
                            aria-label={t('holidays.edit_day', { name: day.name })}
                            onClick={() => setDialog({ mode: 'edit', index })}
                          >
                            <Pencil aria-hidden />
                          </Button>
                          <Button
                            variant="ghost"
                            size="icon"
                            className="size-8 text-destructive"
                            aria-label={t('holidays.remove_day', { name: day.name })}
                            onClick={() => edit(days.filter((_, i) => i !== index))}
                          >
                            <Trash2 aria-hidden />
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </div>
            )}
          </CardContent>
        </Card>
        {saved && (
          <HolidaysCsvImport
            key={year}
            year={year}
            onApply={(incoming, replace) => edit(mergeHolidays(days, incoming, replace))}
          />
        )}
      </div>
      <HolidayDayDialog
        state={dialog}
        year={year}
        days={days}
        onSave={(day, index) =>
          edit(index === undefined ? [...days, day] : days.map((d, i) => (i === index ? day : d)))
        }
        onClose={() => setDialog(null)}
      />
    </>
  );
}
