// Where the API's files are, whether it runs from its TypeScript sources (tsx: tests, `npm run
// dev`) or from its bundle (`apps/api/dist`, what `npm start` and the image run, decision 0041).
// Every path the server reads at run time (migrations, the modules' SQL, the built web app) is
// taken from here, so the two agree.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to `true` by the bundler (apps/api/scripts/build.ts); absent under tsx. */
declare const __API_BUNDLE__: boolean | undefined;

const here = path.dirname(fileURLToPath(import.meta.url));

/** `apps/api`: the bundle's chunks sit in `apps/api/dist`, this file in `apps/api/src/config`. */
export const API_ROOT =
  typeof __API_BUNDLE__ !== 'undefined' && __API_BUNDLE__
    ? path.resolve(here, '..')
    : path.resolve(here, '../..');

/** The repository root: relative defaults are taken from here, whatever the working directory. */
export const REPO_ROOT = path.resolve(API_ROOT, '../..');
