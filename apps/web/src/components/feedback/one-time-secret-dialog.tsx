import { TriangleAlert } from 'lucide-react';
import { CopyField } from '@/components/forms/copy-field';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/** What a one-time secret dialog shows: its texts, already translated, and the secret. */
export interface OneTimeSecret {
  title: string;
  description: string;
  /** That it cannot be shown again. */
  warning: string;
  /** The label of the read-only field that holds it. */
  label: string;
  value: string;
  /** The closing button ("I have saved …"). */
  saved: string;
  /** Long descriptions (an address) may break anywhere. */
  breakDescription?: boolean;
}

/**
 * A secret the server sends once (a terminal's API key, a webhook's signing secret, at creation
 * or rotation): a warning, the value in a read-only field with a copy button, and one button to
 * close. A click outside does not close it. Open while `secret` is set.
 */
export function OneTimeSecretDialog({
  secret,
  onClose,
}: {
  secret: OneTimeSecret | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent onInteractOutside={(event) => event.preventDefault()}>
        {secret && <SecretBody secret={secret} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function SecretBody({ secret, onClose }: { secret: OneTimeSecret; onClose: () => void }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{secret.title}</DialogTitle>
        <DialogDescription className={secret.breakDescription ? 'break-all' : undefined}>
          {secret.description}
        </DialogDescription>
      </DialogHeader>
      <div
        role="alert"
        className="flex gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
      >
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
        <p>{secret.warning}</p>
      </div>
      <CopyField label={secret.label} value={secret.value} />
      <DialogFooter>
        <Button type="button" onClick={onClose}>
          {secret.saved}
        </Button>
      </DialogFooter>
    </>
  );
}
