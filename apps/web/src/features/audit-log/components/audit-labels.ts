import type { TFunction } from 'i18next';
import type { AuditEntry } from '@app/contract';

/** An action in words; an action the app has no label for yet shows as the server wrote it. */
export const auditActionLabel = (t: TFunction, action: string): string =>
  t(`audit_log.actions.${action}`, { defaultValue: action });

/** A record type in words, likewise. */
export const auditEntityLabel = (t: TFunction, type: string): string =>
  t(`audit_log.entities.${type}`, { defaultValue: type });

/** What a row's record is called: the name, username or code in the row, else its current name. */
export function auditRecordName(entry: AuditEntry): string | undefined {
  for (const side of [entry.after, entry.before]) {
    for (const key of ['name', 'username', 'code']) {
      const value = side?.[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  // A row whose change names nothing (a top-up, a distribution: on their company): the record's
  // current name, which the API reads for it.
  return entry.entity_name ?? undefined;
}

/** The record a row is about: its type and, when it names one, its id. */
export const auditRecordLabel = (t: TFunction, entry: AuditEntry): string =>
  entry.entity_id
    ? `${auditEntityLabel(t, entry.entity_type)} #${entry.entity_id}`
    : auditEntityLabel(t, entry.entity_type);

/** Who acted: the username, or the system for changes nobody signed in made. */
export const auditActorLabel = (t: TFunction, entry: AuditEntry): string =>
  entry.actor_username ?? t('audit_log.system');
