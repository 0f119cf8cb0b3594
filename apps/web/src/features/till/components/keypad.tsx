import { useTranslation } from 'react-i18next';
import { TillButton } from './till-button';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫'] as const;

/** Largest amount the keypad takes (digits), well within a safe integer. */
const MAX_DIGITS = 9;

/** The next amount text after `key`: a digit appended, the last one removed, or cleared. */
export function pressKey(amount: string, key: (typeof KEYS)[number]): string {
  if (key === 'C') return '';
  if (key === '⌫') return amount.slice(0, -1);
  if (amount.length >= MAX_DIGITS) return amount;
  return amount === '0' ? key : amount + key;
}

/** The amount keypad, large enough for a thumb; each key is a real button (keyboard too). */
export function Keypad({
  amount,
  onChange,
  disabled,
}: {
  amount: string;
  onChange: (next: string) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={t('till.keypad')} className="grid grid-cols-3 gap-2">
      {KEYS.map((key) => (
        <TillButton
          key={key}
          type="button"
          variant="outline"
          size="big"
          className="tabular-nums"
          disabled={disabled}
          aria-label={key === 'C' ? t('till.clear') : key === '⌫' ? t('till.backspace') : key}
          onClick={() => onChange(pressKey(amount, key))}
        >
          {key}
        </TillButton>
      ))}
    </div>
  );
}
