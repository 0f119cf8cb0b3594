import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, type AuditEntry } from '@app/contract';
import {
  DataTableDateRangeFilter,
  DataTableExportButton,
  DataTableFacetedFilter,
  type TableSearchOf,
} from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { exportAuditLog } from '../api/export-audit-log';
import { useAuditLog } from '../api/get-audit-log';
import { AuditChangeDialog } from '../components/audit-change-dialog';
import { auditColumns } from '../components/audit-columns';
import { auditActionLabel, auditEntityLabel } from '../components/audit-labels';
import type { auditLogSearch } from '../search';

/**
 * Audit Log (admin, Group HR, company admin: each its scope, decision 0036): who did what to
 * which record and when, filtered and sorted by the server; a row opens the change as before and
 * after; the filtered list exports as CSV in the same order.
 */
export function AuditLogPage({ table }: { table: TableSearchOf<typeof auditLogSearch> }) {
  const { t } = useTranslation();
  const entries = useAuditLog(table.query);
  const [viewing, setViewing] = useState<AuditEntry | undefined>(undefined);
  const columns = useMemo(() => auditColumns(t, setViewing), [t]);
  const { page: _page, page_size: _size, ...exportQuery } = table.query;

  return (
    <ListPage
      title={t('nav.audit_log')}
      description={t('audit_log.description')}
      table={table}
      search={{ filterKey: 'actor', placeholder: t('audit_log.search_placeholder') }}
      filters={
        <>
          <DataTableFacetedFilter
            table={table}
            filterKey="action"
            title={t('audit_log.action')}
            options={AUDIT_ACTIONS.map((action) => ({
              value: action,
              label: auditActionLabel(t, action),
            }))}
          />
          <DataTableFacetedFilter
            table={table}
            filterKey="entity_type"
            title={t('audit_log.record_type')}
            options={AUDIT_ENTITY_TYPES.map((type) => ({
              value: type,
              label: auditEntityLabel(t, type),
            }))}
          />
          <DataTableDateRangeFilter
            table={table}
            fromKey="date_from"
            toKey="date_to"
            label={t('audit_log.date')}
          />
        </>
      }
      toolbarActions={<DataTableExportButton onExport={() => exportAuditLog(exportQuery)} />}
      label={t('audit_log.table_label')}
      columns={columns}
      query={entries}
      tableId="audit-log"
      getRowId={(entry) => String(entry.id)}
      emptyMessage={t('audit_log.empty')}
    >
      <AuditChangeDialog entry={viewing} onClose={() => setViewing(undefined)} />
    </ListPage>
  );
}
