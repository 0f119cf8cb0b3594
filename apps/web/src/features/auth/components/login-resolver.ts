import { loginBodySchema } from '@app/contract';
import { formResolver } from '@/lib/form-resolver';

/** The contract's loginBodySchema as a form resolver. Loaded on demand by the login form. */
export const loginResolver = formResolver(loginBodySchema);
