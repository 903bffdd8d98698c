import type { AuthConfig } from '@auth/core';
import { CredentialsSignin } from '@auth/core/errors';
import Credentials from '@auth/core/providers/credentials';
import Google, { type GoogleProfile } from '@auth/core/providers/google';
import { DrizzleAdapter } from '@auth/drizzle-adapter';
import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { signInSchema } from '../../src/features/account/account-api.ts';
import { firstProofStatements, markVerifiedStatements } from './links.ts';
import { accounts, users, verificationTokens, type UserRow } from '../platform/schema.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import type { Config } from '../env.ts';
import type { AppEnv } from '../platform/app.ts';
import { describeError } from '../platform/errors.ts';
import { checkPassword } from './credentials.ts';
import { googleStandin } from './google-standin.ts';
import {
  endSession,
  SESSION_MAX_AGE_SECONDS,
  sessionIsCurrent,
  type SessionClaims,
  sessionUser,
  startSession,
} from './session.ts';

/** Where Google sign-in lands when Google does not vouch for the address (src/features/account/login-forms.ts words it). */
export const GOOGLE_EMAIL_NOT_VERIFIED = '/login?error=GoogleEmailNotVerified';

/** Where Google sign-in lands when someone signed in with another address tries to link it (login-forms.ts words it). */
export const GOOGLE_OTHER_ADDRESS = '/login?error=GoogleOtherAddress';

/** Where Auth.js lives inside the API (stack notes: without basePath every call is 400 UnknownAction). */
export const AUTH_BASE_PATH = '/api/auth';

/** Thrown by `authorize` when the failed-attempt limit is reached: Auth.js puts `code=rate_limited` in its answer. */
export class RateLimitedSignIn extends CredentialsSignin {
  override code = 'rate_limited';
}

/** Whether Google sign-in is available: configured (both vars) or, in tests, the stand-in. */
export function googleAvailable(config: Config): boolean {
  return config.AUTH_GOOGLE_STANDIN || Boolean(config.AUTH_GOOGLE_ID && config.AUTH_GOOGLE_SECRET);
}

/**
 * The user as Auth.js's credentials callback hands it on, with the session version read with the
 * password hash that was checked: the session starts at that version (the `jwt` callback), so a
 * reset or claim landing while the password was being checked leaves it dead.
 */
const authUser = (user: UserRow) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  image: user.image,
  checkedVersion: user.sessionVersion,
});

/**
 * The Auth.js configuration, built per request from the Worker's env and D1 (not at module
 * scope: next-auth#8811). JWT sessions (the only kind credentials allow), the drizzle
 * adapter for Google users and their linked accounts, and the session-version check in the
 * `jwt` callback that ends sessions issued before a sign-out-everywhere or password change.
 *
 * The credentials callback checks the password with its limits (functions/accounts/credentials.ts),
 * unless `checkedUser` is given: the JSON sign-in route (functions/accounts/sign-in.ts) checks
 * first, so it can answer with the check's status and Retry-After, and hands the user it
 * proved on, so the attempt is counted once.
 */
export function authConfig<E extends AppEnv>(c: Context<E>, { checkedUser }: { checkedUser?: UserRow } = {}): AuthConfig {
  const { db, config } = c.var;
  const origin = new URL(c.req.url).origin;
  const providers: AuthConfig['providers'] = [
    Credentials({
      id: 'credentials',
      credentials: { email: { type: 'email' }, password: { type: 'password' } },
      async authorize(credentials) {
        if (checkedUser) return authUser(checkedUser);
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const check = await checkPassword(c, parsed.data.email, parsed.data.password);
        if (check.kind === 'rate_limited') throw new RateLimitedSignIn();
        return check.kind === 'ok' ? authUser(check.user) : null;
      },
    }),
  ];
  if (googleAvailable(config)) {
    const profile = (p: GoogleProfile) => ({
      id: p.sub,
      name: p.name ?? null,
      email: String(p.email ?? '')
        .trim()
        .toLowerCase(),
      image: p.picture ?? null,
      // Read by events.linkAccount below (createUser itself stores null for a new user).
      emailVerified: p.email_verified === true ? new Date() : null,
    });
    providers.push(
      config.AUTH_GOOGLE_STANDIN
        ? Google({ ...googleStandin(origin), profile, checks: ['pkce', 'state'], allowDangerousEmailAccountLinking: true })
        : Google({
            clientId: config.AUTH_GOOGLE_ID,
            clientSecret: config.AUTH_GOOGLE_SECRET,
            profile,
            checks: ['pkce', 'state'],
            // Linking to an account with the same address is allowed here, and refused in
            // the signIn callback unless Google says the address is verified.
            allowDangerousEmailAccountLinking: true,
          }),
    );
  }

  return {
    secret: config.AUTH_SECRET,
    basePath: AUTH_BASE_PATH,
    // The Worker's own URL is the request's (Cloudflare sets Host); no AUTH_URL.
    trustHost: true,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    adapter: DrizzleAdapter(db, {
      usersTable: users,
      accountsTable: accounts,
      verificationTokensTable: verificationTokens,
    } as never),
    providers,
    // Auth.js's own pages are not used: its errors land on the store's login page (?error=<code>).
    pages: { signIn: '/login', error: '/login' },
    logger: {
      error(error) {
        if (error instanceof CredentialsSignin) return; // A wrong password or a limit: not a server problem.
        console.error('Auth error', describeError(error));
      },
      warn() {},
      debug() {},
    },
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider !== 'google') return true;
        // An address Google does not vouch for proves nothing: it neither starts an account
        // (the owner would find it taken) nor joins one (docs/decisions/011, issue 20).
        if (profile?.email_verified !== true) return GOOGLE_EMAIL_NOT_VERIFIED;
        const email = String(profile.email ?? '')
          .trim()
          .toLowerCase();
        // Signed in already, Auth.js would link this Google identity to that account: only to
        // an account of the address Google vouches for, or an attacker signed in to an account
        // made in someone else's name could keep a way in through their own Google account.
        const signedIn = await sessionUser(c);
        if (signedIn && signedIn.email !== email) return GOOGLE_OTHER_ADDRESS;
        const [existing] = await db.select().from(users).where(eq(users.email, email));
        if (existing && existing.emailVerified === null) {
          // Google is the address's first proof: whatever was set up before it (a password
          // nobody proved, its sessions, other links) ends, and Auth.js then links this
          // identity to the account by its address.
          await db.batch(firstProofStatements(db, existing, config.SITE_URL, { passwordHash: null }));
          deliverEmailsLater(c);
        }
        return true;
      },
      async jwt({ token, user, account, profile }) {
        // Belt and braces for Google (withoutEndedSession() in auth-routes.ts keeps ended sessions
        // out): a Google identity only ever signs in to the account of the address it vouches for.
        if (account?.provider === 'google' && user && googleEmail(profile) !== user.email) return null;
        if (user) {
          // Sign-in: a new session row at the version the password was checked against, or for
          // Google (whose signIn callback above may have just moved it) the user's version now.
          const userId = String(token.sub);
          const checked = (user as { checkedVersion?: unknown }).checkedVersion;
          const version = typeof checked === 'number' ? checked : await sessionVersionOf(c, userId);
          token.sv = version;
          token.sid = await startSession(db, userId, version, c.req.header('user-agent'));
          return token;
        }
        return (await sessionIsCurrent(db, token as SessionClaims)) ? token : null;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: String(token.sub) } };
      },
    },
    events: {
      async signOut(message) {
        // Auth.js's own sign-out form: the row goes too, so a copy of the cookie is dead.
        const token = 'token' in message ? (message.token as SessionClaims | null) : null;
        if (typeof token?.sub === 'string' && typeof token.sid === 'string') await endSession(db, token.sub, token.sid);
      },
      async linkAccount({ user, account, profile }) {
        if (account.provider !== 'google' || !user.id) return;
        const google = profile as { emailVerified?: unknown; email?: unknown };
        if (google.email !== user.email) {
          // Linked to an account of another address (it cannot be, past the signIn callback and
          // withoutEndedSession(); if it ever is): undone at once, and the jwt callback starts no session.
          await db
            .delete(accounts)
            .where(and(eq(accounts.provider, account.provider), eq(accounts.providerAccountId, account.providerAccountId)));
          return;
        }
        // Google vouched for the address: it is verified, and its guest orders join the account.
        if (!google.emailVerified || !user.email) return;
        await db.batch([...markVerifiedStatements(db, user.id, user.email)]);
      },
    },
  };
}

/** The address a Google profile names, as the store keeps addresses (lower-cased). */
function googleEmail(profile: unknown): string {
  return String((profile as { email?: unknown } | undefined)?.email ?? '')
    .trim()
    .toLowerCase();
}

async function sessionVersionOf<E extends AppEnv>(c: Context<E>, userId: string): Promise<number> {
  const [row] = await c.var.db.select({ v: users.sessionVersion }).from(users).where(eq(users.id, userId));
  return row?.v ?? 0;
}
