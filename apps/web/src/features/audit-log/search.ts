import { AUDIT_ACTIONS, AUDIT_ENTITY_TYPES, AUDIT_SORTS } from '@app/contract';
import { dateFilter, defineTableSearch, oneOf, textFilter } from '@/components/data-table';

/**
 * The audit log's state in the URL: who (part of a username), the action, the record type and a
 * range of days; sorted by the server (GET /audit-log, decision 0036).
 */
export const auditLogSearch = defineTableSearch({
  filters: {
    actor: textFilter(100),
    action: oneOf(AUDIT_ACTIONS),
    entity_type: oneOf(AUDIT_ENTITY_TYPES),
    date_from: dateFilter(),
    date_to: dateFilter(),
  },
  sortable: AUDIT_SORTS,
});
