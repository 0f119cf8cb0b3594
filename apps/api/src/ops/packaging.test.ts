// The container files agree with the server they package (issue 15 item 7, decision 0021). No
// image can be built on this machine, so what can be checked is checked here: the compose file
// parses and names what the HAProxy configuration balances, the drain fits in the stop grace
// period, the image's command starts the server with Node itself, as a non-root user, health-
// checked on /readyz, and the build context leaves local data and secrets out. (`haproxy -c`
// accepts deploy/haproxy.cfg: checked by hand with Debian's HAProxy 2.6, decision 0021.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUNDLE_ENTRY, NODE_FLAGS } from '../../scripts/build';
import { loadConfig, REPO_ROOT } from '../config';

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
const seconds = (text: string) => {
  const match = /^(\d+)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1]) / (match[2] === 'ms' ? 1000 : match[2] === 'm' ? 1 / 60 : 1);
};

interface ComposeService {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  stop_grace_period?: string;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: unknown;
}

describe('compose.yaml and deploy/haproxy.cfg', () => {
  const compose = parse(read('compose.yaml')) as { services: Record<string, ComposeService> };
  const haproxy = read('deploy/haproxy.cfg');
  const apis = Object.entries(compose.services).filter(([, s]) => s.build === '.');

  it('run PostgreSQL 15, two API instances built here and HAProxy', () => {
    expect(compose.services.db?.image).toBe('postgres:15');
    expect(compose.services.db?.healthcheck).toBeDefined();
    expect(apis.map(([name]) => name).sort()).toEqual(['api1', 'api2']);
    expect(compose.services.lb?.image).toMatch(/^haproxy:/);
  });

  it('give every API instance a valid configuration on the compose database, behind the proxy', () => {
    for (const [, api] of apis) {
      const config = loadConfig(api.environment);
      expect(config.isEmbedded).toBe(false);
      expect(new URL(config.DATABASE_URL!).hostname).toBe('db');
      expect(config.TRUST_PROXY).toBe(true);
      expect(api.depends_on).toMatchObject({ db: { condition: 'service_healthy' } });
    }
  });

  it('let an instance drain: the stop grace period outlasts SHUTDOWN_TIMEOUT_MS', () => {
    for (const [, api] of apis) {
      const drain = loadConfig(api.environment).SHUTDOWN_TIMEOUT_MS / 1000;
      expect(seconds(api.stop_grace_period ?? '10s')).toBeGreaterThan(drain);
      // HAProxy takes the instance out (fall × inter) well before the drain's bound.
      const inter = seconds(/inter (\S+)/.exec(haproxy)![1]!);
      const fall = Number(/fall (\d+)/.exec(haproxy)![1]);
      expect(inter * fall).toBeLessThan(drain);
    }
  });

  it('balance exactly the compose API instances, health-checked on /readyz', () => {
    expect(haproxy).toMatch(/option httpchk GET \/readyz\n/);
    expect(haproxy).toMatch(/http-check expect status 200\n/);
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):(\d+) check/gm)];
    expect(servers.map((m) => m[2]).sort()).toEqual(apis.map(([name]) => name).sort());
    for (const m of servers) expect(Number(m[3])).toBe(loadConfig({}).PORT);
    const bind = /bind :(\d+)/.exec(haproxy)![1];
    expect(compose.services.lb?.['ports' as keyof ComposeService]).toEqual([
      `127.0.0.1:${bind}:${bind}`,
    ]);
  });
});

describe('the Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('builds on Node 24 slim in two stages, the runtime with production dependencies only', () => {
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => [m[1], m[2]]);
    expect(stages).toEqual([
      ['node:24-slim', 'build'],
      ['node:24-slim', 'runtime'],
    ]);
    expect(runtime).toMatch(/RUN npm ci --omit=dev --workspace apps\/api /);
    expect(runtime).toContain('COPY --from=build /app/apps/web/dist apps/web/dist');
  });

  it('runs the server file with node itself, as a non-root user, health-checked on /readyz', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(runtime)?.[1];
    const args = JSON.parse(cmd!) as string[];
    // The flags every start of the bundle shares (the young generation capped, decision 0052).
    expect(args.slice(0, 1 + NODE_FLAGS.length)).toEqual(['node', ...NODE_FLAGS]);
    // The API's bundle, which the build stage makes and the runtime stage copies.
    expect(args[1 + NODE_FLAGS.length]).toBe(path.relative(REPO_ROOT, BUNDLE_ENTRY));
    expect(args).toHaveLength(2 + NODE_FLAGS.length);
    expect(dockerfile).toContain('npm run build -w apps/api');
    expect(runtime).toContain('COPY --from=build /app/apps/api/dist apps/api/dist');
    expect(/^USER (\S+)$/m.exec(runtime)?.[1]).toBe('node');
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/readyz/m);
    expect(runtime).toMatch(/HOST=0\.0\.0\.0/);
  });

  it('is built from a context without local data, backups, secrets or installed modules', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of ['.git', '**/node_modules', 'data', 'backups', '.env', '**/dist']) {
      expect(ignored).toContain(entry);
    }
  });
});

describe('npm start', () => {
  it('runs the bundle with the flags the image and the tests use', () => {
    const scripts = (
      JSON.parse(read('apps/api/package.json')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.start).toBe(`node ${NODE_FLAGS.join(' ')} dist/server.mjs`);
  });
});
