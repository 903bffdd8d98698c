// Light checks, not zod: the header of every page reads the session, and any zod schema in the
// browser brings zod's ~17 KB core with it (src/lib/light-schema.ts).
import { endpoint } from '../../lib/api-contract.ts';
import { boolean, type Infer, nullable, object, oneOf, string } from '../../lib/light-schema.ts';
import { ROLES } from './account-values.ts';

/** Who is signed in, as every page's islands and the header see it. */
export const sessionUserSchema = object({
  id: string(),
  /** May be null: sign-up asks only for e-mail and password. */
  name: nullable(string()),
  email: string(),
  role: oneOf(ROLES),
  emailVerified: boolean(),
});
export type SessionUser = Infer<typeof sessionUserSchema>;

export const sessionInfoSchema = object({
  user: nullable(sessionUserSchema),
  /** Whether Google sign-in is configured; false: the button says it is not available. */
  google: boolean(),
});
export type SessionInfo = Infer<typeof sessionInfoSchema>;

/** GET /api/session: who is signed in (null for a guest), fetched once per page. */
export const sessionApi = endpoint({ method: 'GET', path: '/api/session', response: sessionInfoSchema });

/** POST /api/account/sign-out: clears the session cookie. Here, with a light check, because every page's header signs out. */
export const signOutApi = endpoint({
  method: 'POST',
  path: '/api/account/sign-out',
  response: object({ message: string() }),
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
