import { useId } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** A labelled one-time-code field with its inline error (enrolment and turning off). */
export function CodeField({
  label,
  value,
  onChange,
  error,
  numeric = true,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  numeric?: boolean;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        {...(numeric ? { inputMode: 'numeric' as const, pattern: '[0-9]*' } : {})}
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm whitespace-pre-line text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
