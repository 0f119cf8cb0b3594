import { useMutation } from '@tanstack/react-query';
import { Download, LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';

/**
 * Downloads what the list's filters show as CSV. Only lists whose API has an export endpoint get
 * one (`onExport` calls it, usually through lib/download); failures go through the display rule.
 */
export function DataTableExportButton({ onExport }: { onExport: () => Promise<void> }) {
  const { t } = useTranslation();
  const exportCsv = useMutation({ mutationFn: onExport });
  return (
    <Button
      variant="outline"
      size="sm"
      className="h-8"
      disabled={exportCsv.isPending}
      onClick={() => exportCsv.mutate()}
    >
      {exportCsv.isPending ? (
        <LoaderCircle className="animate-spin" aria-hidden />
      ) : (
        <Download aria-hidden />
      )}
      {exportCsv.isPending ? t('table.exporting') : t('table.export_csv')}
    </Button>
  );
}
