// The OpenAPI document as the server serves it, made without a server: `npm run openapi` writes
// it to docs/openapi.json and src/openapi.test.ts compares the two.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createDatabase } from './db/client';

/** docs/openapi.json at the repository's root. */
export const OPENAPI_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../docs/openapi.json',
);

/** The document of an app on an empty embedded database (routes do not depend on the data). */
export async function openApiDocument(): Promise<unknown> {
  const database = await createDatabase({});
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SERVE_WEB: 'false',
      MFA_ENCRYPTION_KEY: '0'.repeat(64),
    });
    const app = await buildApp({ config, database, logger: false });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
