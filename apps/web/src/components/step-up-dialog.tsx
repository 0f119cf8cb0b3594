import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-error';
import type { StepUpCalls } from '@/lib/step-up-calls';
import { errorMessageLines } from '@/lib/error-display';
import { translateMessage } from '@/lib/messages';

type Factor = 'password' | 'totp';

/**
 * A refusal of the proof, under the dialog's one field: the field's message alone (the API names
 * the field `current_password` or `code`, which the person does not see), else the display rule.
 */
function proofErrorLines(failure: unknown): string[] {
  const metadata = isApiError(failure) ? failure.metadata : undefined;
  if (metadata && Object.keys(metadata).length > 0) {
    return Object.values(metadata).map((message) => translateMessage(String(message)));
  }
  return errorMessageLines(failure);
}

/**
 * Step-up (DESIGN 9): "confirm it is you" over whatever the user was doing. The action that asked
 * for it waits, with everything typed still in its form, and is sent again once this succeeds
 * (lib/step-up.tsx); cancelling gives the action its refusal back.
 */
export function StepUpDialog({
  calls,
  onDone,
}: {
  calls: StepUpCalls;
  onDone: (confirmed: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(true);
  const [factor, setFactor] = useState<Factor | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);

  // The field is disabled until the proof to ask for is known, so the dialog's own focus on open
  // cannot land on it: it takes the focus once enabled.
  useEffect(() => {
    if (factor) field.current?.focus();
  }, [factor]);

  useEffect(() => {
    let live = true;
    calls
      .hasSecondFactor()
      .then((hasIt) => live && setFactor(hasIt ? 'totp' : 'password'))
      .catch(() => live && setFactor('password'));
    return () => {
      live = false;
    };
  }, [calls]);

  const close = (confirmed: boolean) => {
    setOpen(false);
    onDone(confirmed);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!factor || busy) return;
    if (value.trim() === '') {
      setError([t(factor === 'totp' ? 'step_up.code_required' : 'step_up.password_required')]);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await calls.reauthenticate(factor === 'totp' ? { code: value.trim() } : { password: value });
      close(true);
    } catch (failure) {
      setError(proofErrorLines(failure));
      setValue('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close(false)}>
      <DialogContent data-testid="step-up-dialog">
        <DialogHeader>
          <DialogTitle>{t('step_up.title')}</DialogTitle>
          <DialogDescription>
            {t(factor === 'totp' ? 'step_up.description_code' : 'step_up.description_password')}
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={(event) => void submit(event)} noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-secret`}>
              {t(factor === 'totp' ? 'step_up.code' : 'step_up.password')}
            </Label>
            <Input
              id={`${id}-secret`}
              ref={field}
              disabled={!factor}
              type={factor === 'totp' ? 'text' : 'password'}
              inputMode={factor === 'totp' ? 'numeric' : undefined}
              autoComplete={factor === 'totp' ? 'one-time-code' : 'current-password'}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
            {error && (
              <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
                {error.join(' ')}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" disabled={!factor || busy}>
              {busy ? t('step_up.checking') : t('step_up.confirm')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
