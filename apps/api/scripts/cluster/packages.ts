// The cluster is built only from Debian packages: etcd-server, patroni, haproxy and the PostgreSQL
// server. Missing ones are installed with apt-get, non-interactively (root only).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Binaries {
  etcd: string;
  patroni: string;
  patronictl: string;
  haproxy: string;
  /** The directory of postgres, initdb, pg_ctl, pg_rewind: /usr/lib/postgresql/<newest>/bin. */
  postgresBin: string;
}

const WANTED: { binary: keyof Omit<Binaries, 'postgresBin'>; file: string; pkg: string }[] = [
  { binary: 'etcd', file: '/usr/bin/etcd', pkg: 'etcd-server' },
  { binary: 'patroni', file: '/usr/bin/patroni', pkg: 'patroni' },
  { binary: 'patronictl', file: '/usr/bin/patronictl', pkg: 'patroni' },
  { binary: 'haproxy', file: '/usr/sbin/haproxy', pkg: 'haproxy' },
];

function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

function aptGet(args: string[]) {
  execFileSync('apt-get', args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Finds the binaries, installing the packages that hold missing ones; throws if it cannot. */
export function ensurePackages(log: (line: string) => void): Binaries {
  const missing = new Set(WANTED.filter((w) => !fs.existsSync(w.file)).map((w) => w.pkg));
  if (!postgresBinDir()) missing.add('postgresql');
  if (missing.size > 0) {
    const list = [...missing];
    if (process.getuid?.() !== 0) {
      throw new Error(
        `missing Debian packages ${list.join(', ')}; install them: sudo apt-get install -y ${list.join(' ')}`,
      );
    }
    log(`installing ${list.join(', ')} with apt-get …`);
    const install = ['install', '-y', '-q', '--no-install-recommends', ...list];
    try {
      aptGet(install);
    } catch {
      aptGet(['update', '-q']);
      aptGet(install);
    }
  }
  const postgresBin = postgresBinDir();
  const absent = WANTED.filter((w) => !fs.existsSync(w.file)).map((w) => w.file);
  if (!postgresBin || absent.length > 0) {
    throw new Error(
      `still missing after apt-get: ${[...absent, postgresBin ?? 'postgres'].join(', ')}`,
    );
  }
  return {
    ...(Object.fromEntries(WANTED.map((w) => [w.binary, w.file])) as Omit<Binaries, 'postgresBin'>),
    postgresBin,
  };
}
