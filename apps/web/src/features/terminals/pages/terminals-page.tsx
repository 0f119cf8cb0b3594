import { useMemo, useState } from 'react';
import { Plus } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import type { Terminal } from '@app/contract';
import {
  DataTableFacetedFilter,
  DataTableStatusFilter,
  type Option,
  type TableSearch,
} from '@/components/data-table';
import { ListPage } from '@/components/layout/list-page';
import { Button } from '@/components/ui/button';
import { confirmAlert } from '@/lib/alert-store';
import { deleteWithConfirm, toggleStatusWithConfirm } from '@/lib/status-actions';
import { useDeleteTerminal } from '../api/delete-terminal';
import { useTerminals } from '../api/get-terminals';
import { useRotateTerminalKey } from '../api/rotate-terminal-key';
import { useUpdateTerminalStatus } from '../api/update-terminal-status';
import { TerminalFormDialog, type TerminalDialogState } from '../components/terminal-form-dialog';
import { TerminalKeyDialog, type RevealedKey } from '../components/terminal-key-dialog';
import { terminalsColumns } from '../components/terminals-columns';
import type { terminalsSearch } from '../search';

/**
 * Terminals (/terminals, admin): list by merchant and status, create (the key is shown once),
 * edit, rotate a key behind a confirmation (the new key shown once), activate/deactivate, delete.
 */
export function TerminalsPage({
  table,
  merchantOptions,
}: {
  table: TableSearch<typeof terminalsSearch.filters>;
  merchantOptions: Option[];
}) {
  const { t } = useTranslation();
  const terminals = useTerminals(table.query);
  const { mutate: changeStatus } = useUpdateTerminalStatus();
  const { mutate: rotateKey, reset: forgetRotation } = useRotateTerminalKey();
  const { mutate: removeTerminal } = useDeleteTerminal();
  const [dialog, setDialog] = useState<TerminalDialogState>(null);
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);

  const merchantNames = useMemo(
    () => new Map(merchantOptions.map((option) => [option.value, option.label])),
    [merchantOptions],
  );

  const columns = useMemo(() => {
    const onRotateKey = async (terminal: Terminal) => {
      const confirmed = await confirmAlert({
        id: `rotate-${terminal.id}`,
        titleKey: 'terminals.rotate_title',
        messageKey: 'terminals.rotate_message',
        values: { code: terminal.code },
        confirmKey: 'terminals.rotate',
        cancelKey: 'actions.cancel',
        destructive: true,
      });
      if (!confirmed) return;
      rotateKey(terminal.id, {
        onSuccess: (withKey) => {
          forgetRotation();
          setRevealed({ terminal: withKey, reason: 'rotated' });
        },
      });
    };
    return terminalsColumns(t, {
      merchantName: (id) => merchantNames.get(String(id)) ?? `#${id}`,
      onEdit: (terminal) => setDialog({ mode: 'edit', terminal }),
      onDelete: (terminal) =>
        void deleteWithConfirm(terminal.code, (callbacks) =>
          removeTerminal(terminal.id, callbacks),
        ),
      onRotateKey: (terminal) => void onRotateKey(terminal),
      onToggleStatus: (terminal) =>
        void toggleStatusWithConfirm(terminal.code, terminal.status, (status, callbacks) =>
          changeStatus({ id: terminal.id, status }, callbacks),
        ),
    });
  }, [t, merchantNames, rotateKey, forgetRotation, changeStatus, removeTerminal]);

  return (
    <ListPage
      title={t('nav.terminals')}
      description={t('terminals.description')}
      actions={
        <Button
          onClick={() => setDialog({ mode: 'create', merchantId: table.filters.merchant_id })}
        >
          <Plus aria-hidden />
          {t('terminals.add')}
        </Button>
      }
      table={table}
      search={{ filterKey: 'search', placeholder: t('terminals.search_placeholder') }}
      filters={
        <>
          <DataTableFacetedFilter
            table={table}
            filterKey="merchant_id"
            title={t('terminals.merchant')}
            options={merchantOptions}
          />
          <DataTableStatusFilter table={table} />
        </>
      }
      label={t('terminals.table_label')}
      columns={columns}
      query={terminals}
      tableId="terminals"
      getRowId={(terminal) => String(terminal.id)}
    >
      <TerminalFormDialog
        state={dialog}
        onClose={() => setDialog(null)}
        merchantOptions={merchantOptions}
        onCreated={(terminal) => {
          toast.success(t('toasts.created'));
          setDialog(null);
          setRevealed({ terminal, reason: 'created' });
        }}
      />
      <TerminalKeyDialog revealed={revealed} onClose={() => setRevealed(null)} />
    </ListPage>
  );
}
