import { useCallback, useEffect, useState } from 'react';
import { registerModal } from '@/lib/modals';

export interface ModalOpenProps {
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/**
 * Open state of a dialog-like root, controlled or not. While open, the modal is registered so
 * `closeAllModals()` (session expiry) can close it.
 */
export function useModalOpenState({ open: openProp, defaultOpen, onOpenChange }: ModalOpenProps) {
  const [uncontrolledOpen, setUncontrolledOpen] = useState(defaultOpen ?? false);
  const isControlled = openProp !== undefined;
  const open = isControlled ? openProp : uncontrolledOpen;

  const setOpen = useCallback(
    (next: boolean) => {
      if (!isControlled) setUncontrolledOpen(next);
      onOpenChange?.(next);
    },
    [isControlled, onOpenChange],
  );

  useEffect(() => (open ? registerModal(() => setOpen(false)) : undefined), [open, setOpen]);

  return [open, setOpen] as const;
}
