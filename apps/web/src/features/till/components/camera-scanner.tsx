import { useEffect, useRef, useState } from 'react';
import jsQR from 'jsqr';
import { useTranslation } from 'react-i18next';
import { TILL_CODE_LENGTH } from '../lib/code-length';
import { TillButton } from './till-button';

/** Why the camera did not open, as the till says it (till.camera_*). */
export type CameraProblem = 'unavailable' | 'denied' | 'missing' | 'busy' | 'failed';

/** The problem of a getUserMedia failure (its DOMException's name). */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (['NotAllowedError', 'SecurityError', 'PermissionDeniedError'].includes(name)) return 'denied';
  if (['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError'].includes(name)) {
    return 'missing';
  }
  if (['NotReadableError', 'TrackStartError', 'AbortError'].includes(name)) return 'busy';
  return 'failed';
}

/** The pay code a QR holds: its digits when they are as many as a pay code's, else null. */
export function payCodeOf(text: string): string | null {
  const digits = text.replace(/[\s-]/g, '');
  return /^\d+$/.test(digits) && digits.length === TILL_CODE_LENGTH ? digits : null;
}

/** The widest frame decoded: enough for a phone's QR at arm's length, light on a phone's CPU. */
const DECODE_WIDTH = 640;
/** Between two decoded frames: a few a second. */
const FRAME_INTERVAL_MS = 120;

/**
 * The till's camera (DESIGN 8): the device's rear camera when it has one, its frames decoded with
 * jsQR until one holds a pay code, which `onCode` receives; the camera is then stopped, as it is
 * when the scanner closes. Its module is loaded on the first press of Scan, not with the till.
 */
export function CameraScanner({
  onCode,
  onClose,
}: {
  onCode: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  // A camera needs a secure page (https, or localhost) and a browser that offers one.
  const [problem, setProblem] = useState<CameraProblem | null>(() =>
    window.isSecureContext && typeof navigator.mediaDevices?.getUserMedia === 'function'
      ? null
      : 'unavailable',
  );
  const [running, setRunning] = useState(false);
  const [notPayCode, setNotPayCode] = useState(false);
  const done = useRef(onCode);
  useEffect(() => {
    done.current = onCode;
  });

  const unavailable = problem === 'unavailable';
  useEffect(() => {
    if (unavailable) return undefined;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
      if (video.current) video.current.srcObject = null;
    };
    const decode = () => {
      if (stopped) return;
      const element = video.current;
      if (element && context && element.readyState >= element.HAVE_CURRENT_DATA) {
        const scale = Math.min(1, DECODE_WIDTH / (element.videoWidth || DECODE_WIDTH));
        const width = Math.round(element.videoWidth * scale);
        const height = Math.round(element.videoHeight * scale);
        if (width > 0 && height > 0) {
          canvas.width = width;
          canvas.height = height;
          context.drawImage(element, 0, 0, width, height);
          const found = jsQR(context.getImageData(0, 0, width, height).data, width, height, {
            inversionAttempts: 'attemptBoth',
          });
          if (found) {
            const code = payCodeOf(found.data);
            if (code) {
              stop();
              done.current(code);
              return;
            }
            setNotPayCode(true);
          }
        }
      }
      timer = window.setTimeout(decode, FRAME_INTERVAL_MS);
    };

    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      .then(async (opened) => {
        if (stopped) {
          opened.getTracks().forEach((track) => track.stop());
          return;
        }
        stream = opened;
        const element = video.current;
        if (!element) return;
        element.srcObject = opened;
        await element.play();
        if (stopped) return;
        setRunning(true);
        decode();
      })
      .catch((error: unknown) => {
        if (stopped) return;
        stop();
        setProblem(cameraProblemOf(error));
      });
    return stop;
  }, [unavailable]);

  return (
    <div className="grid gap-2" data-testid="camera-scanner">
      {problem ? (
        <p
          role="alert"
          className="rounded-md border border-destructive p-3 text-sm text-destructive"
        >
          {t(`till.camera_${problem}`)}
        </p>
      ) : (
        <div className="relative overflow-hidden rounded-md bg-black">
          <video
            ref={video}
            className="aspect-[4/3] w-full object-cover"
            playsInline
            muted
            aria-label={t('till.camera_preview')}
          />
          {/* Where to hold the code. */}
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-[15%] rounded-lg border-2 border-white/80"
          />
        </div>
      )}
      {!problem && (
        <p role="status" className="text-sm text-muted-foreground">
          {notPayCode
            ? t('till.scan_not_pay_code')
            : running
              ? t('till.scan_hint')
              : t('till.camera_starting')}
        </p>
      )}
      <TillButton type="button" variant="outline" onClick={onClose}>
        {problem ? t('till.scan_close') : t('till.scan_stop')}
      </TillButton>
    </div>
  );
}
