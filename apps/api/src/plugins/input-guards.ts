import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { isStorableText } from '../lib/text';

/** Far deeper than any body of the contract (a distribution is 3 levels), far shallower than a stack. */
export const MAX_JSON_DEPTH = 32;

/** How deeply a JSON text nests arrays and objects, read without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return deepest;
}

/**
 * The dotted path of the first key or text in a parsed value that PostgreSQL cannot store (a NUL
 * character or a lone surrogate: `isStorableText`), or null.
 */
export function findUnstorable(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path || '_root';
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, child] of Object.entries(current)) {
        const at = path ? `${path}.${key}` : key;
        if (!isStorableText(key)) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

/**
 * What a request may carry before any route sees it (issue 7, found by fuzzing):
 * - JSON only as JSON: Fastify's text/plain parser is dropped, so a body a cross-site form can
 *   send without a preflight is 415, like every other type but JSON (and multipart on the import);
 * - JSON nested at most MAX_JSON_DEPTH deep, so no later step can be driven into deep recursion;
 * - no text PostgreSQL cannot store, a NUL character or a lone surrogate (it would fail there as
 *   a 500).
 */
export default fp(
  async function inputGuardsPlugin(app: FastifyInstance) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser(['application/json', 'text/plain']);
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        done(new AppError('BODY_INVALID', { metadata: { _root: 'v.invalid' } }), undefined);
        return;
      }
      parseJson(request, text, done);
    });

    app.addHook('preValidation', async (request) => {
      const inUrl = findUnstorable(request.params) ?? findUnstorable(request.query);
      if (inUrl !== null) {
        throw new AppError('QUERY_PARAM_INVALID', { metadata: { [inUrl]: 'v.invalid' } });
      }
      const inBody = findUnstorable(request.body);
      if (inBody !== null) {
        throw new AppError('BODY_INVALID', { metadata: { [inBody]: 'v.invalid' } });
      }
    });
  },
  { name: 'input-guards', dependencies: ['errors'] },
);
