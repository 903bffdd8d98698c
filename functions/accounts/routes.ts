import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import { accountApi, PASSWORD_REQUIRED } from '../../src/features/account/account-api.ts';
import { orderLookupSchema } from '../../src/features/orders/checkout.ts';
import { consumeLink, firstProofStatements, newLinkSecret, peekLink, queueEmailForUser, storeLinkStatements } from './links.ts';
import { userOrder, userOrders, userTransactions } from './orders.ts';
import { loadProfile, updateProfile } from './profile.ts';
import { reviewableProducts, saveReview, userReviews } from './reviews.ts';
import { googleAvailable } from './auth-config.ts';
import { checkPassword, clearSignInFailures, trustDevice } from './credentials.ts';
import { hashPassword } from './password.ts';
import {
  clearSessionCookie,
  currentSession,
  endSession,
  endSessionsStatement,
  issueSessionCookie,
  listSessions,
  requireUser,
  sameOriginOnly,
  sessionUser,
  toSessionUser,
  type SignedInEnv,
} from './session.ts';
import { signInWithPassword } from './sign-in.ts';
import { users, type UserRow } from '../platform/schema.ts';
import {
  accountLink,
  passwordChangedEmail,
  passwordResetEmail,
  RESET_LINK_HOURS,
  signUpExistingEmail,
  signUpUnclaimedEmail,
  VERIFY_LINK_HOURS,
  verifyEmail,
} from './messages.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { bankAccount } from '../env.ts';
import { createRouter } from '../platform/app.ts';
import { ApiError } from '../platform/errors.ts';
import { allowEmailTo, rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { validate } from '../platform/validate.ts';

import { myTradeIns } from '../trade-ins/routes.ts';

const PRIVATE = { 'cache-control': 'no-store' };
const HOUR_MS = 60 * 60 * 1000;

const sameOrigin = sameOriginOnly();
const signedIn = requireUser();
/** Requests that send someone an e-mail, per client. */
const emailLimit = rateLimit({ name: 'account.email', rule: (config) => config.RATE_LIMIT_ACCOUNT_EMAIL });

const invalidToken = () =>
  new ApiError(400, 'invalid_token', 'This link has expired or was already used. Ask for a new one.', [
    { field: 'token', message: 'This link has expired or was already used' },
  ]);

/**
 * Ends every other session of the signed-in user (their rows, and the version for any cookie
 * from before sessions were rows), applying `set` in the same batch; this browser keeps its
 * session with a cookie at the new version.
 */
async function endOtherSessions(c: Context<SignedInEnv>, set: Partial<typeof users.$inferInsert> = {}): Promise<UserRow> {
  const { db, user, sessionId } = c.var;
  const [[row]] = await db.batch([
    db
      .update(users)
      .set({ ...set, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, user.id))
      .returning(),
    endSessionsStatement(db, user.id, sessionId),
  ]);
  if (!row) throw new ApiError(401, 'unauthorized', 'Please sign in to continue.');
  await issueSessionCookie(c, row, sessionId);
  return row;
}

const passwordRequired = () => {
  const message = 'Type the password you chose when you created the account, or choose a new password for it.';
  return new ApiError(400, PASSWORD_REQUIRED, `To confirm this address: ${message[0]!.toLowerCase()}${message.slice(1)}`, [
    { field: 'password', message },
  ]);
};

const sessionNotFound = () => new ApiError(404, 'not_found', 'That session is not signed in any more.');

const SIGN_UP_MESSAGE =
  'Thanks! We have sent a message to that address. If you are new here, it has a link to confirm your address.';
const FORGOT_MESSAGE =
  'If that address has an account, we have sent it a link to choose a new password. The link works for one hour.';

/** /api/account/*: sign-up and sign-in, links from e-mails, and the signed-in user's own data. */
export const accountRoute = createRouter()
  .post('/sign-up', sameOrigin, emailLimit, validate('json', accountApi.signUp.body), async (c) => {
    const { db, config } = c.var;
    const { email, password, name } = c.req.valid('json');
    // The same work whether or not the address has an account: hash, then one batch whose
    // INSERT … SELECTs write the new account's link and e-mail, or the owner's warning.
    const passwordHash = await hashPassword(password);
    const id = crypto.randomUUID();
    const secret = newLinkSecret();
    const isNew = eq(users.id, id);
    // Someone else's account with this address: its owner hears about it; if nobody ever proved
    // the address, the message carries a reset link, which claims the account (issue 20).
    const someoneElse = and(eq(users.email, email), ne(users.id, id))!;
    const unclaimed = and(someoneElse, isNull(users.emailVerified))!;
    const claimSecret = newLinkSecret();
    // Sign-ups for an address that has an account are e-mails a stranger can send its owner over
    // and over: past the per-recipient limit they are left out, and so is the new claim link (the
    // last one sent keeps working). A new account's own verify link always goes: it happens once.
    const mayTellOwner = await allowEmailTo(db, config, email, 'account');
    await db.batch([
      db
        .insert(users)
        .values({ id, email, name: name ?? null, passwordHash })
        .onConflictDoNothing({ target: users.email }),
      ...(await storeLinkStatements(db, 'verify', secret, new Date(Date.now() + VERIFY_LINK_HOURS * HOUR_MS), isNew)),
      queueEmailForUser(db, verifyEmail(email, name, accountLink(config.SITE_URL, 'verify', secret)), isNew),
      ...(mayTellOwner
        ? [
            queueEmailForUser(
              db,
              signUpExistingEmail(email, null, config.SITE_URL),
              and(someoneElse, isNotNull(users.emailVerified))!,
            ),
            ...(await storeLinkStatements(
              db,
              'reset',
              claimSecret,
              new Date(Date.now() + RESET_LINK_HOURS * HOUR_MS),
              unclaimed,
            )),
            queueEmailForUser(db, signUpUnclaimedEmail(email, accountLink(config.SITE_URL, 'reset', claimSecret)), unclaimed),
          ]
        : []),
    ]);
    deliverEmailsLater(c);
    return reply(c, accountApi.signUp, { message: SIGN_UP_MESSAGE }, 202, PRIVATE);
  })
  .post('/sign-in', sameOrigin, validate('json', accountApi.signIn.body), async (c) => {
    const { email, password } = c.req.valid('json');
    const userId = await signInWithPassword(c, email, password);
    const [user] = await c.var.db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new ApiError(401, 'invalid_credentials', 'Please sign in again.');
    return reply(c, accountApi.signIn, { user: toSessionUser(user) }, 200, PRIVATE);
  })
  .post('/sign-out', sameOrigin, async (c) => {
    // The row goes, so a copy of this cookie (another tab, a thief's) is dead too.
    const session = await currentSession(c);
    if (session) await endSession(c.var.db, session.user.id, session.sessionId);
    clearSessionCookie(c);
    return reply(c, accountApi.signOut, { message: 'You are signed out.' }, 200, PRIVATE);
  })
  .post('/sign-out-others', sameOrigin, signedIn, async (c) => {
    await endOtherSessions(c);
    return reply(c, accountApi.signOutOthers, { message: 'You are signed out on every other device.' }, 200, PRIVATE);
  })
  .post('/sign-out-all', sameOrigin, signedIn, async (c) => {
    const { db, user } = c.var;
    await db.batch([
      db
        .update(users)
        .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
        .where(eq(users.id, user.id)),
      endSessionsStatement(db, user.id),
    ]);
    clearSessionCookie(c);
    return reply(c, accountApi.signOutAll, { message: 'You are signed out everywhere, here too.' }, 200, PRIVATE);
  })
  .get('/sessions', signedIn, async (c) =>
    reply(c, accountApi.sessions, { sessions: await listSessions(c.var.db, c.var.user.id, c.var.sessionId) }),
  )
  .post('/sessions/:id/sign-out', sameOrigin, signedIn, validate('param', z.object({ id: z.string().max(64) })), async (c) => {
    const { db, user, sessionId } = c.var;
    const { id } = c.req.valid('param');
    // Only the user's own rows match: another user's id is the same 404 as an unknown one.
    if (!(await endSession(db, user.id, id))) throw sessionNotFound();
    if (id === sessionId) clearSessionCookie(c);
    return reply(c, accountApi.endSession, { message: 'That device is signed out.' }, 200, PRIVATE);
  })
  .post('/verify-email', sameOrigin, validate('json', accountApi.verifyEmail.body), async (c) => {
    const { db, config } = c.var;
    const { token, password, newPassword } = c.req.valid('json');
    // Checked first and used last: a refused attempt leaves the owner's link working.
    const userId = await peekLink(db, 'verify', token);
    const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
    if (!user) throw invalidToken();
    if (user.emailVerified) {
      await consumeLink(db, 'verify', token);
      return reply(c, accountApi.verifyEmail, { message: 'Your e-mail address is already confirmed.' }, 200, PRIVATE);
    }
    // The link proves the inbox; who signed up must be proven too, or whoever typed the
    // address first (perhaps not its owner) would keep a password to the owner's account.
    let passwordHash: string | undefined;
    if (newPassword !== undefined) {
      passwordHash = await hashPassword(newPassword);
    } else if ((await sessionUser(c))?.id !== user.id) {
      if (password === undefined) throw passwordRequired();
      const check = await checkPassword(c, user.email, password);
      if (check.kind === 'rate_limited') {
        c.header('Retry-After', String(check.retryAfterSeconds));
        throw new ApiError(429, 'rate_limited', check.message);
      }
      if (check.kind !== 'ok' || check.user.id !== user.id) {
        throw new ApiError(400, 'invalid_request', 'That is not the password this account was created with.', [
          {
            field: 'password',
            message: 'That is not the password this account was created with. Try again, or choose a new one.',
          },
        ]);
      }
    }
    if ((await consumeLink(db, 'verify', token)) !== user.id) throw invalidToken();
    await db.batch(firstProofStatements(db, user, config.SITE_URL, { passwordHash }));
    const [proven] = await db.select().from(users).where(eq(users.id, user.id));
    if (!proven) throw invalidToken();
    // This browser just proved the inbox: it is signed in, and counted apart from strangers.
    await issueSessionCookie(c, proven);
    await trustDevice(c, user.email);
    if (passwordHash) await clearSignInFailures(c, user.email);
    deliverEmailsLater(c);
    return reply(
      c,
      accountApi.verifyEmail,
      { message: 'Your e-mail address is confirmed. Any sign-in set up before now was ended; you are signed in here.' },
      200,
      PRIVATE,
    );
  })
  .post('/verify-email/resend', sameOrigin, signedIn, emailLimit, async (c) => {
    const { db, config, user } = c.var;
    if (user.emailVerified) {
      return reply(c, accountApi.resendVerification, { message: 'Your e-mail address is already confirmed.' }, 200, PRIVATE);
    }
    // The account holder asks, but an unproven account may be a stranger's who typed this address.
    if (!(await allowEmailTo(db, config, user.email, 'account'))) {
      throw new ApiError(
        429,
        'rate_limited',
        `We have already sent several links to ${user.email} in the last hour. Use the newest one, or try again later.`,
      );
    }
    const secret = newLinkSecret();
    const who = eq(users.id, user.id);
    await db.batch([
      ...(await storeLinkStatements(db, 'verify', secret, new Date(Date.now() + VERIFY_LINK_HOURS * HOUR_MS), who)),
      queueEmailForUser(db, verifyEmail(user.email, user.name, accountLink(config.SITE_URL, 'verify', secret)), who),
    ]);
    deliverEmailsLater(c);
    return reply(c, accountApi.resendVerification, { message: `We have sent a new link to ${user.email}.` }, 200, PRIVATE);
  })
  .post('/forgot-password', sameOrigin, emailLimit, validate('json', accountApi.forgotPassword.body), async (c) => {
    const { db, config } = c.var;
    const { email } = c.req.valid('json');
    // Past the per-recipient limit nothing is written and the answer is the same: the last link
    // sent keeps working, and the inbox is not flooded from many clients (issue 20, finding 7).
    if (await allowEmailTo(db, config, email, 'account')) {
      // The same statements whether or not the address has an account (INSERT … SELECT).
      const secret = newLinkSecret();
      const who = eq(users.email, email);
      await db.batch([
        ...(await storeLinkStatements(db, 'reset', secret, new Date(Date.now() + RESET_LINK_HOURS * HOUR_MS), who)),
        queueEmailForUser(db, passwordResetEmail(email, null, accountLink(config.SITE_URL, 'reset', secret)), who),
      ]);
    }
    deliverEmailsLater(c);
    return reply(c, accountApi.forgotPassword, { message: FORGOT_MESSAGE }, 202, PRIVATE);
  })
  .post('/reset-password', sameOrigin, validate('json', accountApi.resetPassword.body), async (c) => {
    const { db, config } = c.var;
    const { token, password } = c.req.valid('json');
    const userId = await consumeLink(db, 'reset', token);
    const [user] = userId ? await db.select().from(users).where(eq(users.id, userId)) : [];
    if (!user) throw invalidToken();
    const passwordHash = await hashPassword(password);
    // The link proved the address; every session (a thief's too) ends. If it is the address's
    // first proof, so does everything else set up before it (a Google link), and the owner hears.
    if (user.emailVerified === null) {
      await db.batch(firstProofStatements(db, user, config.SITE_URL, { passwordHash }));
    } else {
      await db.batch([
        db
          .update(users)
          .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
          .where(eq(users.id, user.id)),
        endSessionsStatement(db, user.id),
      ]);
    }
    await clearSignInFailures(c, user.email);
    await trustDevice(c, user.email);
    clearSessionCookie(c);
    deliverEmailsLater(c);
    return reply(c, accountApi.resetPassword, { message: 'Your new password is set. Sign in with it.' }, 200, PRIVATE);
  })
  .get('/profile', signedIn, async (c) => reply(c, accountApi.profile, { profile: await loadProfile(c.var.db, c.var.user) }))
  .post('/profile', sameOrigin, signedIn, validate('json', accountApi.updateProfile.body), async (c) => {
    const updated = await updateProfile(c.var.db, c.var.user, c.req.valid('json'));
    return reply(c, accountApi.updateProfile, { profile: await loadProfile(c.var.db, updated) });
  })
  .post('/password', sameOrigin, signedIn, validate('json', accountApi.changePassword.body), async (c) => {
    const { db, config, user } = c.var;
    const { currentPassword, newPassword } = c.req.valid('json');
    if (!user.passwordHash) {
      throw new ApiError(400, 'no_password', 'Your account signs in with Google. Use "Forgot password?" to add a password.');
    }
    // Wrong current passwords count like failed sign-ins (a stolen session cannot guess on).
    const check = await checkPassword(c, user.email, currentPassword);
    if (check.kind === 'rate_limited') {
      c.header('Retry-After', String(check.retryAfterSeconds));
      throw new ApiError(429, 'rate_limited', check.message);
    }
    if (check.kind !== 'ok' || check.user.id !== user.id) {
      throw new ApiError(400, 'invalid_request', 'Your current password is not right.', [
        { field: 'currentPassword', message: 'Your current password is not right' },
      ]);
    }
    await endOtherSessions(c, { passwordHash: await hashPassword(newPassword) });
    await clearSignInFailures(c, user.email);
    await queueEmailForUser(db, passwordChangedEmail(user.email, user.name, config.SITE_URL), eq(users.id, user.id));
    deliverEmailsLater(c);
    return reply(c, accountApi.changePassword, { message: 'Your password is changed. Every other device is signed out.' });
  })
  .get('/orders', signedIn, async (c) =>
    reply(c, accountApi.orders, { orders: await userOrders(c.var.db, c.var.config, c.var.user.id) }),
  )
  .get('/orders/:number', signedIn, validate('param', z.object({ number: orderLookupSchema.shape.number })), async (c) =>
    reply(c, accountApi.order, { order: await userOrder(c.var.db, c.var.config, c.var.user.id, c.req.valid('param').number) }),
  )
  .get('/trade-ins', signedIn, myTradeIns)
  .get('/transactions', signedIn, async (c) =>
    reply(c, accountApi.transactions, { transactions: await userTransactions(c.var.db, c.var.user.id) }),
  )
  .get('/reviews', signedIn, async (c) => reply(c, accountApi.reviews, { reviews: await userReviews(c.var.db, c.var.user.id) }))
  .get('/reviewable', signedIn, async (c) =>
    reply(c, accountApi.reviewable, { products: await reviewableProducts(c.var.db, c.var.user.id) }),
  )
  .post('/reviews', sameOrigin, signedIn, validate('json', accountApi.saveReview.body), async (c) => {
    const saved = await saveReview(c.var.db, c.var.user.id, c.req.valid('json'));
    return reply(c, accountApi.saveReview, { review: saved.review, product: saved.product }, saved.created ? 201 : 200);
  });

/** GET /api/session: who is signed in, and whether Google sign-in is available. */
export const sessionRoute = createRouter().get('/', async (c) => {
  const user = await sessionUser(c);
  return reply(
    c,
    accountApi.session,
    { user: user ? toSessionUser(user) : null, google: googleAvailable(c.var.config) },
    200,
    PRIVATE,
  );
});

/** GET /api/payment-methods: how the store takes payment (the /payment-methods page). */
export const paymentMethodsRoute = createRouter().get('/', (c) => {
  const bank = bankAccount(c.var.config);
  return reply(c, accountApi.paymentMethods, {
    bankTransfer: {
      ...bank,
      steps: [
        'Place your order: the payment step shows the amount and your order number.',
        `Transfer the exact amount to ${bank.accountName}, ${bank.bankName}, account ${bank.accountNumber}, from your bank app or branch.`,
        'Put your order number in the transfer narration, so we can match your payment.',
        "Press 'I Have Made Payment'. We confirm the transfer and ship your order.",
      ],
    },
  });
});
