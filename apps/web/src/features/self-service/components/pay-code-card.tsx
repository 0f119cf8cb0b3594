import { useEffect, useId, useState } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { PAY_CODE, type PayDevice } from '@app/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { confirmAlert } from '@/lib/alert-store';
import { useAuthStore } from '@/lib/auth-store';
import { errorMessageLines } from '@/lib/error-display';
import { formatDateTime } from '@/lib/format';
import { usePayDevices, useRegisterPayDevice, useRemovePayDevice } from '../api/pay-devices';
import {
  browserDeviceName,
  forgetPayDevice,
  groupDigits,
  loadPayDevice,
  payCodeAt,
  savePayDevice,
  secondsLeftAt,
  type StoredPayDevice,
} from '../lib/pay-code';

/** The clock, read again at every second boundary (the code changes at a 30 s one). */
function useSecondClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** The current code of `device`, as digits and as a QR, with the seconds until the next one. */
function RotatingCode({ device }: { device: StoredPayDevice }) {
  const { t } = useTranslation();
  const now = useSecondClock();
  const code = payCodeAt(device, now);
  const left = secondsLeftAt(now);
  return (
    <figure className="flex flex-col items-center gap-3" data-testid="rotating-pay-code">
      {/* Dark on white whatever the theme, with its quiet zone: what scanners read best. */}
      <div className="rounded-md bg-white p-2">
        <QRCodeSVG
          value={code}
          size={240}
          level="M"
          marginSize={2}
          role="img"
          aria-label={t('payCode.qr_label')}
          data-testid="pay-code-qr"
          data-code={code}
        />
      </div>
      <figcaption className="grid justify-items-center gap-2 text-center">
        <span
          className="font-mono text-2xl font-semibold tracking-wider tabular-nums"
          data-testid="pay-code-digits"
          aria-label={t('payCode.digits_label', { code: code.split('').join(' ') })}
        >
          {groupDigits(code)}
        </span>
        <span className="flex items-center gap-2 text-sm text-muted-foreground">
          <span
            aria-hidden="true"
            className="h-1.5 w-24 overflow-hidden rounded-full bg-muted"
            data-testid="pay-code-progress"
          >
            <span
              className="block h-full bg-primary transition-[width]"
              style={{ width: `${(left / PAY_CODE.period) * 100}%` }}
            />
          </span>
          <span data-testid="pay-code-countdown">{t('payCode.changes_in', { count: left })}</span>
        </span>
        <span className="text-sm text-muted-foreground">{t('payCode.hint')}</span>
      </figcaption>
    </figure>
  );
}

function SetUp({ userId, onDone }: { userId: number; onDone: (d: StoredPayDevice) => void }) {
  const { t } = useTranslation();
  const nameId = useId();
  const [name, setName] = useState(() => browserDeviceName());
  const register = useRegisterPayDevice();
  return (
    <form
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        register.mutate(name.trim() || browserDeviceName(), {
          onSuccess: (device) => {
            const stored = {
              device_id: device.device_id,
              secret: device.secret,
              name: device.name,
            };
            savePayDevice(userId, stored);
            onDone(stored);
          },
        });
      }}
    >
      <p className="text-sm text-muted-foreground">{t('payCode.setup_description')}</p>
      <div className="grid gap-1.5">
        <Label htmlFor={nameId}>{t('payCode.device_name')}</Label>
        <Input
          id={nameId}
          value={name}
          maxLength={100}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      {register.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessageLines(register.error).join(' ')}
        </p>
      )}
      <Button type="submit" disabled={register.isPending}>
        {t('payCode.setup')}
      </Button>
    </form>
  );
}

function DeviceList({
  devices,
  currentId,
  onRemoved,
}: {
  devices: PayDevice[];
  currentId: string | undefined;
  onRemoved: (deviceId: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const remove = useRemovePayDevice();
  if (devices.length === 0) return null;
  return (
    <section aria-labelledby="pay-devices-heading" className="grid gap-2">
      <h3 id="pay-devices-heading" className="text-sm font-semibold">
        {t('payCode.devices', { count: devices.length, max: PAY_CODE.maxDevices })}
      </h3>
      <ul className="divide-y rounded-md border" data-testid="pay-devices">
        {devices.map((device) => (
          <li key={device.device_id} className="flex items-center justify-between gap-3 px-3 py-2">
            <span className="grid min-w-0">
              <span className="flex items-center gap-2 text-sm font-medium">
                <span className="truncate">{device.name}</span>
                {device.device_id === currentId && (
                  <span className="rounded-md bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
                    {t('payCode.this_phone')}
                  </span>
                )}
              </span>
              <span className="text-xs text-muted-foreground">
                {device.last_used_at
                  ? t('payCode.last_used', {
                      date: formatDateTime(device.last_used_at, i18n.language),
                    })
                  : t('payCode.never_used')}
              </span>
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={remove.isPending}
              aria-label={t('payCode.remove_named', { name: device.name })}
              onClick={() => {
                void confirmAlert({
                  id: `pay-device-remove-${device.device_id}`,
                  titleKey: 'payCode.remove_title',
                  messageKey: 'payCode.remove_message',
                  values: { name: device.name },
                  confirmKey: 'payCode.remove',
                  cancelKey: 'actions.cancel',
                  destructive: true,
                }).then((confirmed) => {
                  if (!confirmed) return;
                  remove.mutate(device.device_id, {
                    onSuccess: () => onRemoved(device.device_id),
                  });
                });
              }}
            >
              {t('payCode.remove')}
            </Button>
          </li>
        ))}
      </ul>
      {remove.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessageLines(remove.error).join(' ')}
        </p>
      )}
    </section>
  );
}

/**
 * The employee's rotating pay code (DESIGN 8, decision 0078): registers this phone once, keeps its
 * secret here, then draws the code of each 30 s step, offline too; and lists its phones.
 */
export function PayCodeCard() {
  const { t } = useTranslation();
  const userId = useAuthStore((state) => state.user?.user_id);
  const [device, setDevice] = useState<StoredPayDevice | null>(() =>
    userId === undefined ? null : loadPayDevice(userId),
  );
  const devices = usePayDevices();
  // A device removed elsewhere (another phone, the company admin) no longer pays: forgotten here.
  const listed = devices.data;
  const removedElsewhere =
    device !== null &&
    listed !== undefined &&
    !listed.some((d) => d.device_id === device.device_id);
  useEffect(() => {
    if (removedElsewhere && userId !== undefined) forgetPayDevice(userId);
  }, [removedElsewhere, userId]);
  const shown = removedElsewhere ? null : device;
  if (userId === undefined) return null;
  return (
    <Card className="gap-3" data-testid="pay-code-card">
      <CardHeader>
        <CardTitle>
          <h2 className="text-base">{t('payCode.title')}</h2>
        </CardTitle>
        {!shown && <CardDescription>{t('payCode.not_set_up')}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-4">
        {device ? <RotatingCode device={device} /> : <SetUp userId={userId} onDone={setDevice} />}
        {listed && (
          <DeviceList
            devices={listed}
            currentId={shown?.device_id}
            onRemoved={(removed) => {
              if (device?.device_id === removed) {
                forgetPayDevice(userId);
                setDevice(null);
              }
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
