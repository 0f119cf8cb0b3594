import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { shouldHandOver } from '@/features/till/lib/hand-over';
import { TILL_PATH } from '@/features/till/lib/till-path';
import { browser } from '@/lib/browser';

/**
 * /till in the back office (a link of its navigation, the way back after sign-in): the till is a
 * page of its own (src/till-main.tsx, DESIGN 8), so the document is loaded again at this address,
 * which the server answers with the till's page. Where it answered with the back office again (a
 * server without the till's page), a link to it instead of loading over and over.
 */
/**
 * Decided as this chunk loads (once per document, as React may render twice). A side effect of
 * the module's own, which also keeps it a chunk of its own: the build merged it, pure and small,
 * into the entry, which every page (the sign-in page too) loads.
 */
const handOver = shouldHandOver();

export function Component() {
  const { t } = useTranslation();
  useEffect(() => {
    if (handOver) browser.reload();
  }, []);
  if (handOver) return null;
  return (
    <p className="p-4 text-sm">
      <a className="underline underline-offset-4" href={`${TILL_PATH}.html`}>
        {t('till.open')}
      </a>
    </p>
  );
}
