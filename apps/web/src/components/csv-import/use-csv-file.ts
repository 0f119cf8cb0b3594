import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageLines } from '@/lib/error-display';
import { translateMessage } from '@/lib/messages';

/** A preview request of a CSV upload (a feature's `usePreview…` mutation). */
export interface CsvPreviewMutation<TPreview> {
  mutate: (
    file: File,
    options: { onSuccess: (preview: TPreview) => void; onError: (error: unknown) => void },
  ) => void;
  isPending: boolean;
}

/** The chosen file of a CSV upload, its problem lines, and the ids that tie them together. */
export interface CsvFile {
  inputId: string;
  errorId: string;
  problem: string[] | null;
  isPending: boolean;
  /** A file was chosen (or the choice cleared). */
  pick: (file: File | null) => void;
  /** The form's submit: checks the file and asks for its preview. */
  submit: (event: FormEvent) => void;
}

/**
 * The first step of every CSV upload: a file must be chosen, and an empty file is refused before
 * it is sent (spec 5); the server's preview of it goes to `onPreviewed`, its refusal under the box.
 */
export function useCsvFile<TPreview>(
  preview: CsvPreviewMutation<TPreview>,
  onPreviewed: (file: File, preview: TPreview) => void,
  onPicked?: () => void,
): CsvFile {
  const { t } = useTranslation();
  const inputId = useId();
  const errorId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string[] | null>(null);
  return {
    inputId,
    errorId,
    problem,
    isPending: preview.isPending,
    pick: (next) => {
      setFile(next);
      setProblem(null);
      onPicked?.();
    },
    submit: (event) => {
      event.preventDefault();
      if (!file) return setProblem([translateMessage('v.file_required', t)]);
      if (file.size === 0) return setProblem([t('EMPTY_FILE', { ns: 'errors' })]);
      setProblem(null);
      preview.mutate(file, {
        onSuccess: (answer) => onPreviewed(file, answer),
        onError: (error) => setProblem(errorMessageLines(error)),
      });
    },
  };
}
