import type { CSSProperties } from 'react';
import { Toaster as Sonner } from 'sonner';

/** Rich-colour text a little darker than sonner's, for 4.5:1 contrast on its pale backgrounds. */
const CONTRAST_COLOURS = {
  '--success-text': 'hsl(140, 100%, 21%)',
  '--error-text': 'hsl(360, 100%, 38%)',
  '--warning-text': 'hsl(31, 92%, 30%)',
  '--info-text': 'hsl(210, 92%, 38%)',
} as CSSProperties;
import { useTranslation } from 'react-i18next';

/** Spec 9: top-centre, close button, 3 visible, 4000 ms, 14 px gap, Alt+T (356 px wide). */
export function Toaster() {
  const { t } = useTranslation();
  return (
    <Sonner
      position="top-center"
      closeButton
      visibleToasts={3}
      duration={4000}
      gap={14}
      hotkey={['altKey', 'KeyT']}
      richColors
      style={CONTRAST_COLOURS}
      containerAriaLabel={t('toast.region')}
      toastOptions={{ closeButtonAriaLabel: t('actions.close') }}
    />
  );
}
