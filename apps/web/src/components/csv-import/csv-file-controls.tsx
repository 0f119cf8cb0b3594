import type { ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import type { VariantProps } from 'class-variance-authority';
import { Download, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge, type badgeVariants } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCaption, TableHeader, TableRow } from '@/components/ui/table';
import type { CsvFile } from './use-csv-file';
import { rowErrorLines } from './row-errors';

/** The file box of a CSV upload, invalid (and described by its problem) while it has one. */
export function CsvFileInput({ file, className }: { file: CsvFile; className?: string }) {
  return (
    <Input
      id={file.inputId}
      type="file"
      accept=".csv,text/csv"
      className={className}
      aria-invalid={file.problem !== null}
      aria-describedby={file.problem ? file.errorId : undefined}
      onChange={(event) => file.pick(event.target.files?.[0] ?? null)}
    />
  );
}

/** Why the file was refused, one reason a line, under the box. */
export function CsvFileProblem({ file }: { file: CsvFile }) {
  if (!file.problem) return null;
  return (
    <p id={file.errorId} className="text-sm whitespace-pre-line text-destructive">
      {file.problem.join('\n')}
    </p>
  );
}

/** The button that sends the file for its preview, spinning while it is read. */
export function CsvPreviewButton({
  file,
  label,
  variant,
}: {
  file: CsvFile;
  label: string;
  variant?: 'outline';
}) {
  return (
    <Button type="submit" variant={variant} disabled={file.isPending}>
      {file.isPending && <LoaderCircle className="animate-spin" aria-hidden />}
      {label}
    </Button>
  );
}

/** The link that downloads the upload's template (its header row). */
export function CsvTemplateButton({
  download,
  label,
}: {
  download: () => Promise<void>;
  label: string;
}) {
  const template = useMutation({ mutationFn: download });
  return (
    <div>
      <Button
        type="button"
        variant="link"
        className="h-auto px-0"
        disabled={template.isPending}
        onClick={() => template.mutate()}
      >
        <Download aria-hidden />
        {label}
      </Button>
    </div>
  );
}

/** A preview's rows in a box that scrolls under its sticky header; `caption` names them. */
export function CsvPreviewTable({
  caption,
  height,
  head,
  children,
}: {
  caption: string;
  /** The box's height class. */
  height: 'max-h-72' | 'max-h-80';
  /** The header row's cells. */
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`${height} overflow-y-auto rounded-md border`}>
      <Table>
        <TableCaption className="sr-only">{caption}</TableCaption>
        <TableHeader className="sticky top-0 z-10 bg-background">
          <TableRow>{head}</TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </div>
  );
}

/** A previewed row's mark (its label carries the meaning) and, below it, why it is refused. */
export function CsvRowMark({
  action,
  label,
  variant,
  errors,
}: {
  action: string;
  label: string;
  variant: VariantProps<typeof badgeVariants>['variant'];
  errors: Record<string, string> | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Badge variant={variant} data-action={action}>
        {label}
      </Badge>
      {errors && (
        <ul className="mt-1 text-xs text-destructive">
          {rowErrorLines(errors, t).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </>
  );
}
