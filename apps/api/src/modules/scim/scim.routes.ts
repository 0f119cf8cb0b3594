import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../lib/app-error';
import { auditActorOf } from '../../lib/audit';
import { toEnvelope } from '../../plugins/errors';
import { jsonDepth, MAX_JSON_DEPTH } from '../../plugins/input-guards';
import {
  SCIM_CONTENT_TYPE,
  ScimError,
  scimErrorBody,
  serviceProviderConfig,
  userResourceType,
  userSchema,
  listResponse,
  USER_SCHEMA,
} from './scim-resource';
import {
  authenticateScim,
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  recordScimRequest,
  replaceScimUser,
  type ScimClient,
} from './scim.service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The company token behind a /scim/v2 request (decision 0087). */
    scimClient: ScimClient | null;
  }
}

/** Catalogue codes that SCIM names by its own scimType (RFC 7644 3.12). */
const SCIM_TYPES: Record<string, string> = {
  EMPLOYEE_ID_EXISTING_IN_THIS_COMPANY: 'uniqueness',
  EMAIL_EXISTING_IN_THIS_COMPANY: 'uniqueness',
  EMAIL_EXISTING_IN_OTHER_COMPANY: 'uniqueness',
  BODY_INVALID: 'invalidValue',
  QUERY_PARAM_INVALID: 'invalidValue',
};

/** Any failure as an RFC 7644 3.12 error body: SCIM's own, or a catalogue code's, same status. */
function scimErrorOf(error: unknown, request: FastifyRequest) {
  if (error instanceof ScimError) {
    return scimErrorBody(error.status, error.detail, error.scimType);
  }
  const envelope = toEnvelope(error, request);
  const fields = Object.entries(envelope.metadata ?? {})
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ');
  const detail = fields ? `${envelope.message} (${fields})` : envelope.message;
  const code = envelope.code ?? '';
  // A duplicate staff number or email is a conflict in SCIM (409), as Okta and Entra expect.
  const status = SCIM_TYPES[code] === 'uniqueness' ? 409 : envelope.statusCode;
  return scimErrorBody(status, detail, SCIM_TYPES[code]);
}

const send = (reply: FastifyReply, status: number, body: unknown) =>
  reply.code(status).type(SCIM_CONTENT_TYPE).send(body);

const baseUrlOf = (request: FastifyRequest) => `${request.protocol}://${request.host}/scim/v2`;

function clientOf(request: FastifyRequest): ScimClient {
  if (!request.scimClient) throw new ScimError(401, 'A bearer token is required.');
  return request.scimClient;
}

/**
 * /scim/v2 (DESIGN 9, decision 0087): SCIM 2.0 Users of the token's company, and the discovery
 * documents. Every request carries a company's bearer token (no cookie, so no CSRF); bodies and
 * answers are application/scim+json (plain JSON is read too); every refusal is an RFC 7644 3.12
 * error body; every authenticated request is logged for the Provisioning screen.
 */
export default async function scimRoutes(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Read as the API reads JSON (input-guards.ts): no nesting deeper than MAX_JSON_DEPTH.
  app.addContentTypeParser(
    'application/scim+json',
    { parseAs: 'string' },
    (request, body, done) => {
      if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
        done(new ScimError(400, 'The body nests too deeply.', 'invalidSyntax'), undefined);
        return;
      }
      parseJson(request, body as string, done);
    },
  );
  app.decorateRequest('scimClient', null);

  app.setErrorHandler((error, request, reply) => {
    let body;
    try {
      body = scimErrorOf(error, request);
    } catch {
      body = scimErrorBody(500, 'The server failed.');
    }
    const status = Number(body.status);
    if (status >= 500) request.log.error({ err: error }, 'SCIM request failed');
    else request.log.info({ statusCode: status, scimType: body.scimType }, 'SCIM request refused');
    if (status === 401) reply.header('www-authenticate', 'Bearer realm="scim"');
    if (isAppError(error) && error.retryAfterSeconds !== undefined) {
      reply.header('retry-after', String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
    }
    return send(reply, status, body);
  });
  app.setNotFoundHandler(async (_request, reply) =>
    send(reply, 404, scimErrorBody(404, 'No such SCIM endpoint.')),
  );

  app.addHook('onRequest', async (request) => {
    request.scimClient = await authenticateScim(app.deps, request.headers.authorization);
  });
  // Logged before the answer leaves, so its status is known and the log is written when it is.
  app.addHook('onSend', async (request, reply, payload) => {
    const client = request.scimClient;
    if (client) {
      await recordScimRequest(app.deps, client, {
        method: request.method,
        path: request.url,
        status: reply.statusCode,
      }).catch((error: unknown) => request.log.error({ err: error }, 'SCIM request not logged'));
    }
    return payload;
  });

  const hide = { schema: { hide: true } };

  app.get('/ServiceProviderConfig', hide, async (request, reply) =>
    send(reply, 200, serviceProviderConfig(baseUrlOf(request))),
  );
  app.get('/Schemas', hide, async (request, reply) =>
    send(reply, 200, listResponse([userSchema(baseUrlOf(request))], 1, 1)),
  );
  app.get<{ Params: { id: string } }>('/Schemas/:id', hide, async (request, reply) => {
    if (request.params.id !== USER_SCHEMA) throw new ScimError(404, 'No such schema.');
    return send(reply, 200, userSchema(baseUrlOf(request)));
  });
  app.get('/ResourceTypes', hide, async (request, reply) =>
    send(reply, 200, listResponse([userResourceType(baseUrlOf(request))], 1, 1)),
  );
  app.get<{ Params: { id: string } }>('/ResourceTypes/:id', hide, async (request, reply) => {
    if (request.params.id !== 'User') throw new ScimError(404, 'No such resource type.');
    return send(reply, 200, userResourceType(baseUrlOf(request)));
  });

  app.get<{ Querystring: Record<string, unknown> }>('/Users', hide, async (request, reply) =>
    send(
      reply,
      200,
      await listScimUsers(app.deps, clientOf(request), baseUrlOf(request), request.query),
    ),
  );
  app.post('/Users', hide, async (request, reply) => {
    const user = await createScimUser(
      app.deps,
      clientOf(request),
      baseUrlOf(request),
      request.body,
      auditActorOf(request),
    );
    return send(reply.header('location', user.meta.location), 201, user);
  });
  app.get<{ Params: { id: string } }>('/Users/:id', hide, async (request, reply) =>
    send(
      reply,
      200,
      await getScimUser(app.deps, clientOf(request), baseUrlOf(request), request.params.id),
    ),
  );
  app.put<{ Params: { id: string } }>('/Users/:id', hide, async (request, reply) =>
    send(
      reply,
      200,
      await replaceScimUser(
        app.deps,
        clientOf(request),
        baseUrlOf(request),
        request.params.id,
        request.body,
        auditActorOf(request),
      ),
    ),
  );
  app.patch<{ Params: { id: string } }>('/Users/:id', hide, async (request, reply) =>
    send(
      reply,
      200,
      await patchScimUser(
        app.deps,
        clientOf(request),
        baseUrlOf(request),
        request.params.id,
        request.body,
        auditActorOf(request),
      ),
    ),
  );
  app.delete<{ Params: { id: string } }>('/Users/:id', hide, async (request, reply) => {
    await deleteScimUser(app.deps, clientOf(request), request.params.id, auditActorOf(request));
    return reply.code(204).send();
  });
}
