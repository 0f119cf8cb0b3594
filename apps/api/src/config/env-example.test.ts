import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, REPO_ROOT } from './index';

describe('.env.example', () => {
  const text = fs.readFileSync(path.join(REPO_ROOT, '.env.example'), 'utf8');
  // A key is listed as `KEY=value`, or commented out as `# KEY=value` when it has no default.
  const listed = new Set([...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));

  it('lists every key the configuration reads', () => {
    expect(CONFIG_KEYS.filter((key) => !listed.has(key))).toEqual([]);
  });

  it('lists no key the configuration does not read', () => {
    expect([...listed].filter((key) => !CONFIG_KEYS.includes(key))).toEqual([]);
  });
});
