import { Clock, MailCheck, MailWarning } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Invitation, ManagedUser } from '@app/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { CopyField } from './copy-field';

/**
 * The one-time set-password link of a new account (or a new link for one, `resent`), shown once
 * to the admin who invited them: to copy and hand over, and whether it was also emailed
 * (decision 0025).
 */
export function InvitationLink({
  invitation,
  onDone,
  resent = false,
}: {
  invitation: Invitation;
  onDone: () => void;
  resent?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4" data-testid="invitation-link">
      <p role="status" className="text-sm font-medium">
        {t(resent ? 'invitations.resent' : 'invitations.created', {
          name: invitation.user.username,
        })}
      </p>
      <CopyField
        label={t('invitations.link')}
        value={invitation.url}
        hint={t('invitations.link_hint', { at: formatDateTime(invitation.expires_at) })}
      />
      <p className="flex items-center gap-2 text-sm">
        {invitation.emailed && <MailCheck className="size-4" aria-hidden />}
        {invitation.emailed
          ? t('invitations.emailed', { email: invitation.user.email ?? '' })
          : t('invitations.not_emailed')}
      </p>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          {t('actions.done')}
        </Button>
      </DialogFooter>
    </div>
  );
}

/** A new link for an existing account (Resend invitation), in a dialog of its own. */
export function InvitationLinkDialog({
  invitation,
  onClose,
}: {
  invitation: Invitation | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={invitation !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{t('invitations.resent_title')}</DialogTitle>
          <DialogDescription>{invitation?.user.username}</DialogDescription>
        </DialogHeader>
        {invitation && <InvitationLink invitation={invitation} onDone={onClose} resent />}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Beside the status of an account without a password: its invitation is pending, or its link
 * has expired (and wants resending); nothing once the account has a password.
 */
export function InvitationBadge({ invitation }: { invitation: ManagedUser['invitation'] }) {
  const { t } = useTranslation();
  if (!invitation) return null;
  const isExpired = invitation.status === 'expired';
  const hint = t(isExpired ? 'invitations.expired_hint' : 'invitations.pending_hint', {
    at: formatDateTime(invitation.expires_at),
  });
  return (
    <Badge
      variant={isExpired ? 'secondary' : 'outline'}
      title={hint}
      data-invitation={invitation.status}
    >
      {isExpired ? <MailWarning aria-hidden /> : <Clock aria-hidden />}
      {t(isExpired ? 'invitations.expired' : 'invitations.pending')}
    </Badge>
  );
}
