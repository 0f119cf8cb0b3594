// The client's types are the document's: a change of a route (docs/openapi.json, kept equal to
// what the server serves by apps/api/src/openapi.test.ts) without `npm run openapi` fails here.
// The client working against a real server is tested in apps/api/src/client.test.ts.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientTypes, SCHEMA_FILE } from '../scripts/generate';
import { sessionFromCookies } from './index';

describe('the typed client', () => {
  it('holds the types of docs/openapi.json as it is now (run `npm run openapi`)', async () => {
    expect(fs.readFileSync(SCHEMA_FILE, 'utf8')).toBe(await clientTypes());
  });

  it('reads a session from sign-in’s cookies and refuses cookies without one', () => {
    expect(
      sessionFromCookies([
        'sid=abc; Path=/; HttpOnly; SameSite=Lax',
        'XSRF-TOKEN=t%2Bk; Path=/; SameSite=Lax',
      ]),
    ).toEqual({ cookie: 'sid=abc; XSRF-TOKEN=t%2Bk', xsrf: 't+k' });
    expect(() => sessionFromCookies(['XSRF-TOKEN=t; Path=/'])).toThrow(/no session cookies/);
  });
});
