import { z } from 'zod';
import { ROLES } from './constants';

export {
  ROLES,
  ROLE_LABELS,
  ROLE_BADGES,
  PLATFORM_USER_TYPES,
  MERCHANT_ROLES,
  isMerchantRole,
  type Role,
} from './constants';

/** A user's type: one of ROLES (spec 1, DESIGN 2). */
export const roleSchema = z.enum(ROLES);
