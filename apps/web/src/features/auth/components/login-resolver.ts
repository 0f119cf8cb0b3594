import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema } from '@app/contract';

/** The contract's loginBodySchema as a form resolver. Loaded on demand by the login form. */
export const loginResolver = zodResolver(loginBodySchema);
