import { useState } from 'react';
import { Check, Copy, Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { browser } from '@/lib/browser';

/** The ten recovery codes, shown once, with Copy and Download (.txt). */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const text = `${codes.join('\n')}\n`;

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="font-medium">{t('two_factor.codes_title')}</h2>
        <p className="text-sm text-muted-foreground">{t('two_factor.codes_hint')}</p>
      </div>
      <ol
        className="grid grid-cols-2 gap-x-6 gap-y-1 rounded-md border bg-muted/40 p-4 font-mono text-sm"
        aria-label={t('two_factor.codes_title')}
        data-testid="recovery-codes"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            browser.copyText(text).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
          }
        >
          {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
          {t('two_factor.copy')}
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            browser.saveFile(
              new Blob([text], { type: 'text/plain;charset=utf-8' }),
              'recovery-codes.txt',
            )
          }
        >
          <Download aria-hidden />
          {t('two_factor.download')}
        </Button>
        <Button type="button" onClick={onDone}>
          {t('two_factor.done')}
        </Button>
      </div>
      <p aria-live="polite" className="text-sm text-muted-foreground">
        {copied === 'yes' && t('two_factor.copied')}
        {copied === 'failed' && t('two_factor.copy_failed')}
      </p>
    </div>
  );
}
