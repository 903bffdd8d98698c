import { z } from 'zod';
import { accountApi } from '../../src/features/account/account-api.ts';
import { orderLookupSchema } from '../../src/features/orders/checkout.ts';
import { tradeInApi } from '../../src/features/trade-ins/trade-in-api.ts';
import { createRouter } from '../platform/app.ts';
import { deliverEmailsLater } from '../platform/outbox.ts';
import { rateLimit } from '../platform/rate-limit.ts';
import { reply } from '../platform/reply.ts';
import { at } from '../platform/routing.ts';
import { validate } from '../platform/validate.ts';
import { userTradeInViews } from '../trade-ins/view.ts';
import { googleAvailable } from './auth-config.ts';
import { resendVerification, verifyEmailAddress } from './email-verification.ts';
import { userOrder, userOrders, userTransactions } from './orders.ts';
import { changePassword } from './password-change.ts';
import { checkResetLink, resetPassword, sendPasswordReset } from './password-reset.ts';
import { paymentMethods } from './payment-methods.ts';
import { loadProfile, updateProfile } from './profile.ts';
import { reviewableProducts, saveReview, userReviews } from './reviews.ts';
import { listSessions, requireUser, sameOriginOnly, sessionUser, toSessionUser } from './session.ts';
import { signInWithPassword } from './sign-in.ts';
import { endOtherSessions, signOutDevice, signOutEverywhere, signOutHere } from './sign-out.ts';
import { signUp } from './sign-up.ts';

const PRIVATE = { 'cache-control': 'no-store' };

const sameOrigin = sameOriginOnly();
const signedIn = requireUser();
/** Requests that send someone an e-mail, per client. */
const emailLimit = rateLimit({ name: 'account.email', rule: (config) => config.RATE_LIMIT_ACCOUNT_EMAIL });

const ALREADY_VERIFIED_MESSAGE = 'Your e-mail address is already confirmed.';
const SIGN_UP_MESSAGE =
  'Thanks! We have sent a message to that address. If you are new here, it has a link to confirm your address.';
const FORGOT_MESSAGE =
  'If that address has an account, we have sent it a link to choose a new password. The link works for one hour.';

/** Where the account routes are mounted (functions/index.ts): each route's path is its contract's (src/features/account/account-api.ts). */
export const ACCOUNT_BASE = '/api/account';

/** /api/account/*: sign-up and sign-in, links from e-mails, and the signed-in user's own data. */
export const accountRoute = createRouter()
  .post(at(ACCOUNT_BASE, accountApi.signUp), sameOrigin, emailLimit, validate('json', accountApi.signUp.body), async (c) => {
    await signUp(c.var.db, c.var.config, c.req.valid('json'));
    deliverEmailsLater(c);
    return reply(c, accountApi.signUp, { message: SIGN_UP_MESSAGE }, 202, PRIVATE);
  })
  .post(at(ACCOUNT_BASE, accountApi.signIn), sameOrigin, validate('json', accountApi.signIn.body), async (c) => {
    const { email, password } = c.req.valid('json');
    const user = await signInWithPassword(c, email, password);
    return reply(c, accountApi.signIn, { user: toSessionUser(user) }, 200, PRIVATE);
  })
  .post(at(ACCOUNT_BASE, accountApi.signOut), sameOrigin, async (c) => {
    await signOutHere(c);
    return reply(c, accountApi.signOut, { message: 'You are signed out.' }, 200, PRIVATE);
  })
  .post(at(ACCOUNT_BASE, accountApi.signOutOthers), sameOrigin, signedIn, async (c) => {
    await endOtherSessions(c);
    return reply(c, accountApi.signOutOthers, { message: 'You are signed out on every other device.' }, 200, PRIVATE);
  })
  .post(at(ACCOUNT_BASE, accountApi.signOutAll), sameOrigin, signedIn, async (c) => {
    await signOutEverywhere(c);
    return reply(c, accountApi.signOutAll, { message: 'You are signed out everywhere, here too.' }, 200, PRIVATE);
  })
  .get(at(ACCOUNT_BASE, accountApi.sessions), signedIn, async (c) =>
    reply(c, accountApi.sessions, { sessions: await listSessions(c.var.db, c.var.user.id, c.var.sessionId) }),
  )
  .post(
    at(ACCOUNT_BASE, accountApi.endSession),
    sameOrigin,
    signedIn,
    validate('param', z.object({ id: z.string().max(64) })),
    async (c) => {
      await signOutDevice(c, c.req.valid('param').id);
      return reply(c, accountApi.endSession, { message: 'That device is signed out.' }, 200, PRIVATE);
    },
  )
  .post(at(ACCOUNT_BASE, accountApi.verifyEmail), sameOrigin, validate('json', accountApi.verifyEmail.body), async (c) => {
    if ((await verifyEmailAddress(c, c.req.valid('json'))) === 'already_verified') {
      return reply(c, accountApi.verifyEmail, { message: ALREADY_VERIFIED_MESSAGE }, 200, PRIVATE);
    }
    deliverEmailsLater(c);
    return reply(
      c,
      accountApi.verifyEmail,
      { message: 'Your e-mail address is confirmed. Any sign-in set up before now was ended; you are signed in here.' },
      200,
      PRIVATE,
    );
  })
  .post(at(ACCOUNT_BASE, accountApi.resendVerification), sameOrigin, signedIn, emailLimit, async (c) => {
    if ((await resendVerification(c)) === 'already_verified') {
      return reply(c, accountApi.resendVerification, { message: ALREADY_VERIFIED_MESSAGE }, 200, PRIVATE);
    }
    deliverEmailsLater(c);
    return reply(c, accountApi.resendVerification, { message: `We have sent a new link to ${c.var.user.email}.` }, 200, PRIVATE);
  })
  .post(
    at(ACCOUNT_BASE, accountApi.forgotPassword),
    sameOrigin,
    emailLimit,
    validate('json', accountApi.forgotPassword.body),
    async (c) => {
      await sendPasswordReset(c.var.db, c.var.config, c.req.valid('json').email);
      deliverEmailsLater(c);
      return reply(c, accountApi.forgotPassword, { message: FORGOT_MESSAGE }, 202, PRIVATE);
    },
  )
  .post(at(ACCOUNT_BASE, accountApi.checkResetLink), sameOrigin, validate('json', accountApi.checkResetLink.body), async (c) => {
    await checkResetLink(c.var.db, c.req.valid('json').token);
    return reply(c, accountApi.checkResetLink, { message: 'Choose your new password.' }, 200, PRIVATE);
  })
  .post(at(ACCOUNT_BASE, accountApi.resetPassword), sameOrigin, validate('json', accountApi.resetPassword.body), async (c) => {
    const { token, password } = c.req.valid('json');
    await resetPassword(c, token, password);
    deliverEmailsLater(c);
    return reply(c, accountApi.resetPassword, { message: 'Your new password is set. Sign in with it.' }, 200, PRIVATE);
  })
  .get(at(ACCOUNT_BASE, accountApi.profile), signedIn, async (c) =>
    reply(c, accountApi.profile, { profile: await loadProfile(c.var.db, c.var.user) }),
  )
  .post(
    at(ACCOUNT_BASE, accountApi.updateProfile),
    sameOrigin,
    signedIn,
    validate('json', accountApi.updateProfile.body),
    async (c) => {
      const updated = await updateProfile(c.var.db, c.var.user, c.req.valid('json'));
      return reply(c, accountApi.updateProfile, { profile: await loadProfile(c.var.db, updated) });
    },
  )
  .post(
    at(ACCOUNT_BASE, accountApi.changePassword),
    sameOrigin,
    signedIn,
    validate('json', accountApi.changePassword.body),
    async (c) => {
      const { currentPassword, newPassword } = c.req.valid('json');
      await changePassword(c, currentPassword, newPassword);
      deliverEmailsLater(c);
      return reply(c, accountApi.changePassword, { message: 'Your password is changed. Every other device is signed out.' });
    },
  )
  .get(at(ACCOUNT_BASE, accountApi.orders), signedIn, async (c) =>
    reply(c, accountApi.orders, { orders: await userOrders(c.var.db, c.var.config, c.var.user.id) }),
  )
  .get(
    at(ACCOUNT_BASE, accountApi.order),
    signedIn,
    validate('param', z.object({ number: orderLookupSchema.shape.number })),
    async (c) =>
      reply(c, accountApi.order, {
        order: await userOrder(c.var.db, c.var.config, c.var.user.id, c.req.valid('param').number),
      }),
  )
  .get(at(ACCOUNT_BASE, tradeInApi.mine), signedIn, async (c) =>
    reply(c, tradeInApi.mine, { tradeIns: await userTradeInViews(c.var.db, c.var.user) }, 200, PRIVATE),
  )
  .get(at(ACCOUNT_BASE, accountApi.transactions), signedIn, async (c) =>
    reply(c, accountApi.transactions, { transactions: await userTransactions(c.var.db, c.var.user.id) }),
  )
  .get(at(ACCOUNT_BASE, accountApi.reviews), signedIn, async (c) =>
    reply(c, accountApi.reviews, { reviews: await userReviews(c.var.db, c.var.user.id) }),
  )
  .get(at(ACCOUNT_BASE, accountApi.reviewable), signedIn, async (c) =>
    reply(c, accountApi.reviewable, { products: await reviewableProducts(c.var.db, c.var.user.id) }),
  )
  .post(
    at(ACCOUNT_BASE, accountApi.saveReview),
    sameOrigin,
    signedIn,
    validate('json', accountApi.saveReview.body),
    async (c) => {
      const saved = await saveReview(c.var.db, c.var.user.id, c.req.valid('json'));
      return reply(c, accountApi.saveReview, { review: saved.review, product: saved.product }, saved.created ? 201 : 200);
    },
  );

/** Where GET /api/session is mounted (functions/index.ts). */
export const SESSION_BASE = '/api/session';

/** GET /api/session: who is signed in, and whether Google sign-in is available. */
export const sessionRoute = createRouter().get(at(SESSION_BASE, accountApi.session), async (c) => {
  const user = await sessionUser(c);
  return reply(
    c,
    accountApi.session,
    { user: user ? toSessionUser(user) : null, google: googleAvailable(c.var.config) },
    200,
    PRIVATE,
  );
});

/** Where GET /api/payment-methods is mounted (functions/index.ts). */
export const PAYMENT_METHODS_BASE = '/api/payment-methods';

/** GET /api/payment-methods: how the store takes payment (the /payment-methods page). */
export const paymentMethodsRoute = createRouter().get(at(PAYMENT_METHODS_BASE, accountApi.paymentMethods), (c) =>
  reply(c, accountApi.paymentMethods, paymentMethods(c.var.config)),
);
