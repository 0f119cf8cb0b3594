import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../lib/app-error';
import { hasTotpEnabled } from './mfa.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to a user whose role must enrol in TOTP and has not (self-info, sign-out, enrolment). */
    beforeMfaEnrolment?: boolean;
  }
}

const API_PREFIX = '/api/v1';

/**
 * The enrolment gate (DESIGN 4.1): a signed-in user of a role in MFA_REQUIRED_ROLES without TOTP
 * on gets 403 MFA_ENROLMENT_REQUIRED from every /api/v1 route but the few that say
 * `beforeMfaEnrolment`. Registered after the auth plugin, so its hook runs once the user is known.
 */
export default fp(
  async function mfaGatePlugin(app: FastifyInstance) {
    const { config, database } = app.deps;
    if (config.mfaRequiredRoles.length === 0) return;
    app.addHook('onRequest', async (request) => {
      const { url, config: routeConfig } = request.routeOptions;
      const user = request.user;
      if (!user || !url?.startsWith(API_PREFIX) || routeConfig.beforeMfaEnrolment) return;
      if (!config.mfaRequiredRoles.includes(user.type)) return;
      // The identity provider checked a second factor at this session's sign-in (decision 0086).
      if (user.secondFactorAtProvider) return;
      if (await hasTotpEnabled(database.db, user.id)) return;
      throw new AppError('MFA_ENROLMENT_REQUIRED');
    });
  },
  { name: 'mfa-gate', dependencies: ['auth'] },
);
