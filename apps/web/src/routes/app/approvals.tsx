import { useSearchParams } from 'react-router';
import { can } from '@app/contract/permissions';
import { ApprovalsPage, type ApprovalsTab } from '@/features/approvals/pages/approvals-page';
import { useAuthStore } from '@/lib/auth-store';

/** /approvals?tab=pending|decided (decision 0039); the admin also edits the policy here. */
export function Component() {
  const [search, setSearch] = useSearchParams();
  const role = useAuthStore((state) => state.user?.type);
  const tab: ApprovalsTab = search.get('tab') === 'decided' ? 'decided' : 'pending';
  return (
    <ApprovalsPage
      tab={tab}
      onTab={(next) => setSearch(next === 'pending' ? {} : { tab: next }, { replace: true })}
      canEditPolicy={can(role, 'sys.manage')}
    />
  );
}
