import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';

/**
 * A success toast that names what was done and links to it (issue 19 item 5): "1,500 tokens
 * issued to UX Review Co · View". The toaster sits outside the router, so its View button
 * navigates with the caller's router.
 */
export function useNotifyDone() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(
    (message: string, href?: string) =>
      toast.success(
        message,
        href
          ? { action: { label: t('toasts.view'), onClick: () => void navigate(href) } }
          : undefined,
      ),
    [t, navigate],
  );
}
