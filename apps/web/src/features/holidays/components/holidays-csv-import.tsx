import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Holiday } from '@app/contract';
import {
  CsvFileInput,
  CsvFileProblem,
  CsvPreviewButton,
  CsvPreviewTable,
  CsvRowMark,
  useCsvFile,
  type CsvPreviewMutation,
} from '@/components/csv-import';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { TableCell, TableHead, TableRow } from '@/components/ui/table';
import { formatDate } from '@/lib/format';
import { OTHER_YEAR, parseHolidaysCsv, type ParsedHolidays } from './holidays-csv';

/** The file is read here, not sent: its "preview" is the parse, at once. */
function useLocalParse(year: number): CsvPreviewMutation<ParsedHolidays> {
  const [isPending, setPending] = useState(false);
  return {
    isPending,
    mutate: (file, { onSuccess, onError }) => {
      setPending(true);
      file
        .text()
        .then((text) => onSuccess(parseHolidaysCsv(text, year)), onError)
        .finally(() => setPending(false));
    },
  };
}

/**
 * The holiday file of a year (`date,name` a line): read in the browser and shown, the days it
 * holds and the lines it refuses with their reason, before any of it joins the list. The list
 * is saved with Save, as any other change.
 */
export function HolidaysCsvImport({
  year,
  onApply,
}: {
  year: number;
  /** The file's days, added to the list's (the file's names win) or replacing them. */
  onApply: (days: Holiday[], replace: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const [parsed, setParsed] = useState<ParsedHolidays | null>(null);
  const file = useCsvFile(
    useLocalParse(year),
    (_file, result) => setParsed(result),
    () => setParsed(null),
  );
  const reasonText = (reason: string) =>
    reason === OTHER_YEAR ? t('holidays.csv.other_year', { year }) : reason;
  const apply = (replace: boolean) => {
    if (!parsed) return;
    onApply(
      parsed.days.map(({ date, name }) => ({ date, name })),
      replace,
    );
    setParsed(null);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>{t('holidays.csv.title')}</h2>
        </CardTitle>
        <CardDescription>{t('holidays.csv.description', { year })}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form noValidate className="grid gap-2" onSubmit={file.submit}>
          <Label htmlFor={file.inputId}>{t('holidays.csv.file')}</Label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <CsvFileInput file={file} className="sm:max-w-sm" />
            <CsvPreviewButton file={file} label={t('holidays.csv.read')} variant="outline" />
          </div>
          <CsvFileProblem file={file} />
        </form>
        {parsed && (
          <div className="grid gap-3" data-testid="holidays-csv-preview">
            <p className="text-sm font-medium" aria-live="polite">
              {t('holidays.csv.summary', {
                days: parsed.days.length,
                refused: parsed.refused.length,
              })}
            </p>
            {(parsed.days.length > 0 || parsed.refused.length > 0) && (
              <CsvPreviewTable
                caption={t('holidays.csv.preview_caption')}
                height="max-h-80"
                head={
                  <>
                    <TableHead className="w-12">{t('holidays.csv.line')}</TableHead>
                    <TableHead>{t('holidays.csv.day')}</TableHead>
                    <TableHead>{t('holidays.csv.result')}</TableHead>
                  </>
                }
              >
                {[
                  ...parsed.refused.map((line) => ({ line: line.line, refused: line })),
                  ...parsed.days.map((day) => ({ line: day.line, day })),
                ]
                  .sort((a, b) => a.line - b.line)
                  .map((row) =>
                    'refused' in row ? (
                      <TableRow key={row.line}>
                        <TableCell className="tabular-nums">{row.line}</TableCell>
                        <TableCell
                          className="max-w-36 truncate font-mono text-xs sm:max-w-96"
                          title={row.refused.text}
                        >
                          {row.refused.text}
                        </TableCell>
                        <TableCell className="min-w-32 whitespace-normal">
                          <CsvRowMark
                            action="refused"
                            label={t('holidays.csv.refused')}
                            variant="destructive"
                            errors={{ _row: reasonText(row.refused.reason) }}
                          />
                        </TableCell>
                      </TableRow>
                    ) : (
                      <TableRow key={row.line}>
                        <TableCell className="tabular-nums">{row.line}</TableCell>
                        <TableCell className="break-words whitespace-normal">
                          <span className="tabular-nums">
                            {formatDate(row.day.date, i18n.language)}
                          </span>
                          {' · '}
                          {row.day.name}
                        </TableCell>
                        <TableCell>
                          <CsvRowMark
                            action="accepted"
                            label={t('holidays.csv.accepted')}
                            variant="secondary"
                            errors={null}
                          />
                        </TableCell>
                      </TableRow>
                    ),
                  )}
              </CsvPreviewTable>
            )}
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                disabled={parsed.days.length === 0}
                onClick={() => apply(false)}
              >
                {t('holidays.csv.add')}
              </Button>
              <Button
                type="button"
                variant="outline"
                disabled={parsed.days.length === 0}
                onClick={() => apply(true)}
              >
                {t('holidays.csv.replace')}
              </Button>
              <Button type="button" variant="ghost" onClick={() => setParsed(null)}>
                {t('holidays.csv.discard')}
              </Button>
            </div>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
