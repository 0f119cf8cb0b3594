export {
  CsvFileInput,
  CsvFileProblem,
  CsvPreviewButton,
  CsvPreviewTable,
  CsvRowMark,
  CsvTemplateButton,
} from './csv-file-controls';
export { rowErrorLines } from './row-errors';
export { useCsvFile, type CsvFile, type CsvPreviewMutation } from './use-csv-file';
