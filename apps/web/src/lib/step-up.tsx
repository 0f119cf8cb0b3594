import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { StepUpDialog } from '@/components/step-up-dialog';
import type { StepUpCalls } from './step-up-calls';
import { i18n } from '@/locales/i18n';

let asking: Promise<boolean> | null = null;

/**
 * Step-up (DESIGN 9): asks the signed-in user to prove who it is again, over the page, and
 * answers whether it did. Loaded only when an answer asks for it (lib/transport.ts), so no page
 * carries it in its first load; drawn in a root of its own beside the app's, with the app's
 * language. Requests that ask at the same time share one dialog. `calls` are the transport's.
 */
export function confirmIdentity(calls: StepUpCalls): Promise<boolean> {
  asking ??= new Promise<boolean>((resolve) => {
    const host = document.createElement('div');
    host.dataset.stepUp = '';
    document.body.append(host);
    const root = createRoot(host);
    const done = (confirmed: boolean) => {
      asking = null;
      resolve(confirmed);
      // After the dialog's closing has run (focus goes back where it was).
      window.setTimeout(() => {
        root.unmount();
        host.remove();
      }, 0);
    };
    root.render(
      <I18nextProvider i18n={i18n}>
        <StepUpDialog calls={calls} onDone={done} />
      </I18nextProvider>,
    );
  });
  return asking;
}
