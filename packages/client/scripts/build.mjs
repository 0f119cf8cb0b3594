// `npm run build` (and `prepare`, so `npm ci` and `npm pack` run it): the client as JavaScript with
// its type declarations in dist/, what the package's `exports` name (issue 44 item 3). tsc emits
// index.js and index.d.ts; the generated types (src/schema.d.ts, declarations already) are copied
// beside them, since tsc does not copy a .d.ts file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

fs.rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
  stdio: 'inherit',
});
fs.copyFileSync(path.join(root, 'src/schema.d.ts'), path.join(dist, 'schema.d.ts'));
