import { useTableSearch } from '@/components/data-table';
import { AuditLogPage } from '@/features/audit-log/pages/audit-log-page';
import { auditLogSearch } from '@/features/audit-log/search';

/** /audit-log: the URL's list state (decision 0036). */
export function Component() {
  return <AuditLogPage table={useTableSearch(auditLogSearch)} />;
}
