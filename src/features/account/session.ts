// zod/mini: the header of every page reads the session; full zod would add ~13 KB to each.
import { z } from 'zod/mini';
import { endpoint } from '../../lib/api-contract.ts';
import { ROLES } from './account-values.ts';

/** Who is signed in, as every page's islands and the header see it. */
export const sessionUserSchema = z.object({
  id: z.string(),
  /** May be null: sign-up asks only for e-mail and password. */
  name: z.nullable(z.string()),
  email: z.string(),
  role: z.enum(ROLES),
  emailVerified: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionInfoSchema = z.object({
  user: z.nullable(sessionUserSchema),
  /** Whether Google sign-in is configured; false: the button says it is not available. */
  google: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** GET /api/session: who is signed in (null for a guest), fetched once per page. */
export const sessionApi = endpoint({ method: 'GET', path: '/api/session', response: sessionInfoSchema });

/** POST /api/account/sign-out: clears the session cookie. Here, in zod/mini, because every page's header signs out. */
export const signOutApi = endpoint({
  method: 'POST',
  path: '/api/account/sign-out',
  response: z.object({ message: z.string() }),
});

/** Where /login sends the shopper back to: a same-site path only, never another site (no open redirect). */
export function safeReturnPath(candidate: string | null | undefined, fallback = '/profile'): string {
  if (!candidate?.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return fallback;
  // No control characters (a tab or line break can turn into another URL), and never back to /login.
  if ([...candidate].some((ch) => ch.charCodeAt(0) < 0x20) || candidate.startsWith('/login')) return fallback;
  return candidate;
}

/** The query parameter that carries the page to return to after signing in: `/login?next=/orders`. */
export const RETURN_PARAM = 'next';

/** The sign-in page for a visitor who should come back to `path` afterwards. */
export function signInUrl(path: string): string {
  return `/login?${RETURN_PARAM}=${encodeURIComponent(path)}`;
}
