import { useId, useState, type ReactNode } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from 'sonner';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { browser } from '@/lib/browser';

/**
 * A value shown once to be handed over (a terminal's API key, a webhook's signing secret, an
 * invitation link): its label, the value in a read-only field that selects itself on focus, and a
 * copy button that says when it has copied (a toast either way). `hint` goes under the field.
 */
export function CopyField({
  label,
  value,
  hint,
}: {
  label: string;
  value: string;
  hint?: ReactNode;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [isCopied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await browser.copyText(value);
      setCopied(true);
      toast.success(t('toasts.copied'));
    } catch {
      toast.error(t('toasts.copy_failed'));
    }
  };
  return (
    <div className="grid gap-2">
      <label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          readOnly
          value={value}
          className="font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {isCopied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {isCopied ? t('actions.copied') : t('actions.copy')}
        </Button>
      </div>
      {hint && <p className="text-sm text-muted-foreground">{hint}</p>}
    </div>
  );
}
