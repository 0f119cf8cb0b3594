// `npm run openapi`: writes the API's OpenAPI document to docs/openapi.json, as the server serves
// it at /api/docs/json (src/openapi.test.ts fails when the two differ).
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument, OPENAPI_FILE } from '../src/openapi-document';

const document = await openApiDocument();
fs.writeFileSync(OPENAPI_FILE, `${JSON.stringify(document, null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), OPENAPI_FILE)}`);
