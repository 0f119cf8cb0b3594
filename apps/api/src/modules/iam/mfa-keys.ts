import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseKey32, type Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { stateSlot, type AppState } from '../../lib/app-state';

/** The key file made on the embedded database when MFA_ENCRYPTION_KEY is unset (decision 0015). */
export const MFA_KEY_FILE = 'mfa-encryption.key';

type KeyConfig = Pick<Config, 'mfaEncryptionKey' | 'isEmbedded' | 'dataDir'>;

/** What the TOTP secrets and recovery codes are protected with; derived from one master key. */
export interface MfaKeyring {
  /** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** HMAC-SHA-256 of a normalised recovery code, hex. */
  hashRecoveryCode(code: string): string;
}

function keyringFrom(master: Buffer): MfaKeyring {
  // Separate subkeys, so the cipher key and the hashing key are never the same bytes.
  const derive = (info: string) =>
    Buffer.from(crypto.hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  const secretKey = derive('totp-secret-v1');
  const recoveryKey = derive('recovery-code-v1');
  return {
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', secretKey, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return ['v1', iv, tag, data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) {
        throw new Error('unreadable TOTP secret');
      }
      const decipher = crypto.createDecipheriv(
        'aes-256-gcm',
        secretKey,
        Buffer.from(iv, 'base64url'),
      );
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(data, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
    hashRecoveryCode(code) {
      return crypto.createHmac('sha256', recoveryKey).update(code, 'utf8').digest('hex');
    },
  };
}

/** Reads DATA_DIR's key file, or makes it (0600) if there is none; two racing starts agree. */
async function embeddedKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, MFA_KEY_FILE);
  const read = async () => {
    const key = parseKey32(await fs.readFile(file, 'utf8'));
    if (!key) throw new Error(`${file} does not hold a 32-byte key (hex or base64)`);
    return key;
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  try {
    await fs.writeFile(file, `${crypto.randomBytes(32).toString('hex')}\n`, {
      mode: 0o600,
      flag: 'wx',
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return read();
}

/** The app's keyring, once resolved (or being resolved); null until its first use. */
export const MFA_KEYRING = stateSlot<{ keyring: Promise<MfaKeyring | null> | null }>('mfa keyring');

interface KeyringDeps {
  config: KeyConfig;
  state: AppState;
}

/**
 * The keyring of the app's configuration, or null when there is no key (DATABASE_URL without
 * MFA_ENCRYPTION_KEY). Resolved on first use, once per app.
 */
export function mfaKeyringOf({ config, state }: KeyringDeps): Promise<MfaKeyring | null> {
  const held = state.of(MFA_KEYRING, () => ({ keyring: null }));
  if (!held.keyring) {
    const keyring = (async () => {
      if (config.mfaEncryptionKey) return keyringFrom(config.mfaEncryptionKey);
      if (config.isEmbedded) return keyringFrom(await embeddedKey(config.dataDir));
      return null;
    })();
    // A failed read (a broken key file) is tried again next time, not remembered.
    keyring.catch(() => {
      if (held.keyring === keyring) held.keyring = null;
    });
    held.keyring = keyring;
  }
  return held.keyring;
}

/** The keyring, or 409 MFA_NOT_CONFIGURED. */
export async function requireMfaKeyring(deps: KeyringDeps): Promise<MfaKeyring> {
  const keyring = await mfaKeyringOf(deps);
  if (!keyring) throw new AppError('MFA_NOT_CONFIGURED');
  return keyring;
}
