import { z } from 'zod';
import { endpoint } from '../../lib/api-contract.ts';
import { emailSchema, singleLineText } from '../../lib/fields.ts';
import { productIdSchema } from '../catalogue/product.ts';
import { customerFields } from '../orders/checkout.ts';
import { NIGERIAN_STATES } from '../orders/nigeria.ts';
import { ORDER_STATUSES } from '../orders/order-status.ts';
import { bankAccountSchema, orderViewSchema } from '../orders/order-view.ts';
import { THEMES } from './account-values.ts';
import { currentPasswordSchema, newPasswordSchema } from './password-policy.ts';
import * as light from '../../lib/light-schema.ts';
import { sessionApi, sessionUserSchema, signOutApi } from './session.ts';

/**
 * The accounts API (issue 11), declared once for the Worker and the browser (see
 * src/lib/api-contract.ts and docs/decisions/011-sessions-and-sign-in.md).
 *
 * Sessions are an HTTP-only cookie set by the Worker: the browser never reads or sends a
 * token itself, it only calls these endpoints (same origin, JSON bodies). Every refusal is
 * the API's error shape (src/lib/api-error.ts): 400 `invalid_request` with field issues,
 * 401 `unauthorized` (signed out, or the session was ended elsewhere), 401
 * `invalid_credentials` (sign-in), 403 `forbidden`, 404 `not_found`, 429 `rate_limited`
 * with a `Retry-After` header (seconds) and a message saying how long to wait.
 *
 * Links in account e-mails open the login page with a query parameter; the login island
 * posts it back: `/login?verify=<token>` → `verifyEmail`, `/login?reset=<token>` → ask for
 * a new password, then `resetPassword`. Google sign-in is Auth.js's own redirect flow
 * (see GOOGLE_SIGN_IN below); after it the browser lands on `callbackUrl`, or on
 * `/login?error=<code>` when it failed.
 */

export { ROLES, THEMES, type Role, type Theme } from './account-values.ts';

/** Query parameters of the links the account e-mails carry (both open /login). */
export const ACCOUNT_LINK_PARAMS = { verify: 'verify', reset: 'reset' } as const;

/**
 * Google sign-in, for the login island: `GET /api/auth/csrf` → `{ csrfToken }` (it also sets
 * Auth.js's CSRF cookie), then a fetch POST to `/api/auth/signin/google` with fields
 * `csrfToken` and `callbackUrl` (a same-site path such as `/profile`) and the header
 * `X-Auth-Return-Redirect: 1`, which answers `{ url }` (Google's authorize URL, with Auth.js's
 * state and PKCE cookies set); the page then goes there with `location.assign(url)`. Not a
 * form POST: the CSP's `form-action 'self'` blocks a form whose answer redirects to Google. Only when `session.google` is true. A failure comes back to
 * `/login?error=<code>`: `OAuthAccountNotLinked` (an account with a password has this
 * address and Google did not say it is verified), `AccessDenied`, or another Auth.js code.
 */
export const GOOGLE_SIGN_IN = { csrfPath: '/api/auth/csrf', signInPath: '/api/auth/signin/google' } as const;

// Who is signed in: written with zod/mini in session.ts, because every page's header reads it.
export { sessionApi, sessionInfoSchema, sessionUserSchema, type SessionInfo, type SessionUser } from './session.ts';

/** A message for the user (a toast or the form's banner). */
export const messageSchema = z.object({ message: z.string() });

const optionalName = customerFields.name.optional();

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: optionalName,
});
export type SignUpRequest = z.input<typeof signUpSchema>;

export const signInSchema = z.object({ email: emailSchema, password: currentPasswordSchema });
export type SignInRequest = z.input<typeof signInSchema>;

export const emailOnlySchema = z.object({ email: emailSchema });

/** The secret from an e-mailed link. */
export const linkTokenSchema = z
  .string({ error: 'This link is not valid' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{32,128}$/, 'This link is not valid');

/**
 * The verify link proves the inbox; who signed up is proven too (issue 20): by this browser's
 * session of that account, or its `password`; otherwise the clicker claims the address with
 * a `newPassword` of their own, and the sign-up's password stops working.
 */
export const verifyEmailSchema = z.object({
  token: linkTokenSchema,
  password: currentPasswordSchema.optional(),
  newPassword: newPasswordSchema.optional(),
});
export type VerifyEmailRequest = z.input<typeof verifyEmailSchema>;

/** The error code of a verify link opened without proof of who signed up: ask for the password or a new one. */
export const PASSWORD_REQUIRED = 'password_required';
export const resetPasswordSchema = z.object({ token: linkTokenSchema, password: newPasswordSchema });
export const linkOnlySchema = z.object({ token: linkTokenSchema });
export const changePasswordSchema = z.object({ currentPassword: currentPasswordSchema, newPassword: newPasswordSchema });

export const notificationPrefsSchema = z.object({
  /** E-mails about the user's orders beyond the required ones (shipped, delivered). */
  orderUpdates: z.boolean(),
  /** Offers and new products. */
  promotions: z.boolean(),
});

/** The profile as the account pages show it. */
export const profileSchema = z.object({
  name: z.string().nullable(),
  email: z.string(),
  emailVerified: z.boolean(),
  hasPassword: z.boolean(),
  hasGoogle: z.boolean(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.enum(NIGERIAN_STATES).nullable(),
  notifications: notificationPrefsSchema,
  theme: z.enum(THEMES),
});
export type Profile = z.infer<typeof profileSchema>;

/**
 * What the profile forms may change: any subset of these fields (the personal tab sends
 * name, phone and the default delivery address; the notifications and preferences tabs
 * their own fields). The same field rules as the checkout. `null` clears an optional field.
 * Any other field (email, role, emailVerified…) is refused with 400.
 */
export const profileUpdateSchema = z
  .strictObject({
    name: customerFields.name,
    phone: customerFields.phone.nullable(),
    address: customerFields.address.nullable(),
    city: customerFields.city.nullable(),
    state: customerFields.state.nullable(),
    notifications: notificationPrefsSchema.partial(),
    theme: z.enum(THEMES),
  })
  .partial();
export type ProfileUpdateRequest = z.input<typeof profileUpdateSchema>;

/** One place the account is signed in (a row of `sessions`). */
export const signedInSessionSchema = z.object({
  id: z.string(),
  /** A coarse "Browser on OS", never the full user agent or the address. */
  label: z.string(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  /** The session of the browser asking. */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof signedInSessionSchema>;

export const TRANSACTION_STATUSES = ['due', 'reported', 'confirmed', 'cancelled', 'expired'] as const;

/** One bank transfer behind one of the user's orders. */
export const transactionSchema = z.object({
  orderNumber: z.string(),
  /** Kobo. */
  amount: z.number().int().nonnegative(),
  /** What the transfer's narration carries: the order number. */
  reference: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  orderStatus: z.enum(ORDER_STATUSES),
  createdAt: z.iso.datetime(),
  /** When the user said they had paid ('I Have Made Payment'). */
  reportedAt: z.iso.datetime().nullable(),
  /** When the store confirmed the money arrived. */
  confirmedAt: z.iso.datetime().nullable(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const reviewCommentSchema = singleLineText('comment', 500);

export const saveReviewSchema = z.strictObject({
  productId: productIdSchema,
  rating: z
    .number({ error: 'Please choose a rating from 1 to 5' })
    .int('Please choose a rating from 1 to 5')
    .min(1, 'Please choose a rating from 1 to 5')
    .max(5, 'Please choose a rating from 1 to 5'),
  /** Optional; empty or missing means no comment. */
  comment: z
    .string()
    .trim()
    .transform((value) => value || undefined)
    .pipe(reviewCommentSchema.optional())
    .optional()
    .nullable(),
});
export type SaveReviewRequest = z.input<typeof saveReviewSchema>;

export const reviewSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  image: z.string(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Review = z.infer<typeof reviewSchema>;

/** A product from one of the user's delivered orders, with their review of it if they wrote one. */
export const reviewableSchema = z.object({
  productId: z.string(),
  productName: z.string(),
  image: z.string(),
  review: reviewSchema.nullable(),
});

export const paymentMethodsSchema = z.object({
  bankTransfer: bankAccountSchema.extend({
    /**
     * True when each order gets an account of its own (a payment provider: decision 023); the
     * account above is then only for an order that shows it.
     */
    ownAccounts: z.boolean(),
    /** How paying works, in order, for the /payment-methods page. */
    steps: z.array(z.string()),
  }),
});

/** The accounts API's contract. */
export const accountApi = {
  /** Who is signed in (null when nobody) and whether Google sign-in is available. `cache-control: no-store`. Call once per page. */
  session: sessionApi,
  /**
   * 202 with the same message whether or not the address already has an account (its owner
   * gets a "someone tried to sign up" e-mail instead). Does not sign in: call `signIn` next
   * with the same e-mail and password. A new account gets a verify-your-address e-mail.
   */
  signUp: endpoint({ method: 'POST', path: '/api/account/sign-up', body: signUpSchema, response: messageSchema }),
  /** Signs in (sets the session cookie): 200 `{ user }`; 401 `invalid_credentials`; 429 `rate_limited` + Retry-After. */
  signIn: endpoint({
    method: 'POST',
    path: '/api/account/sign-in',
    body: signInSchema,
    response: light.object({ user: sessionUserSchema }),
  }),
  /** Signs this browser out (clears the session cookie). Always 200. */
  signOut: signOutApi,
  /** Ends every other session of the user (this one stays, its cookie reissued). 401 when signed out. */
  signOutOthers: endpoint({ method: 'POST', path: '/api/account/sign-out-others', response: messageSchema }),
  /**
   * Ends every session of the user, this one too (its cookie cleared). 401 when signed out.
   */
  signOutAll: endpoint({ method: 'POST', path: '/api/account/sign-out-all', response: messageSchema }),
  /** Where the user is signed in, newest first; `current` marks this browser. Only the user's own. */
  sessions: endpoint({
    method: 'GET',
    path: '/api/account/sessions',
    response: z.object({ sessions: z.array(signedInSessionSchema) }),
  }),
  /** Ends one of the user's sessions (every copy of its cookie). 404 `not_found` for an unknown id or another user's. */
  endSession: endpoint({ method: 'POST', path: '/api/account/sessions/:id/sign-out', response: messageSchema }),
  /**
   * The token from `/login?verify=<token>` with proof of who signed up: this browser's session
   * of the account, or `password`; or `newPassword` to claim the address (the old password is
   * replaced). On the address's first proof it is verified, earlier guest orders and trade-ins
   * join, every earlier session and Google link ends, the owner is e-mailed, and this browser
   * is signed in. 400 `password_required` (issue on `password`) without proof, the link still
   * usable; 400 `invalid_request` (issue on `password`) for a wrong one; 429 `rate_limited`;
   * 400 `invalid_token` when used, expired or unknown.
   */
  verifyEmail: endpoint({ method: 'POST', path: '/api/account/verify-email', body: verifyEmailSchema, response: messageSchema }),
  /** Sends the signed-in user a new verify-your-address e-mail (rate-limited). */
  resendVerification: endpoint({ method: 'POST', path: '/api/account/verify-email/resend', response: messageSchema }),
  /** 'Forgot password?': 202 with the same message whether or not the address has an account; the owner gets a one-hour, single-use link. */
  forgotPassword: endpoint({
    method: 'POST',
    path: '/api/account/forgot-password',
    body: emailOnlySchema,
    response: messageSchema,
  }),
  /**
   * Whether the token from `/login?reset=<token>` still works, without using it: the page asks
   * when it opens, so a used or expired link says so before a new password is typed. 400 `invalid_token`.
   */
  checkResetLink: endpoint({
    method: 'POST',
    path: '/api/account/reset-password/check',
    body: linkOnlySchema,
    response: messageSchema,
  }),
  /** The token from `/login?reset=<token>` and a new password: ends every session; then sign in. 400 `invalid_token`. */
  resetPassword: endpoint({
    method: 'POST',
    path: '/api/account/reset-password',
    body: resetPasswordSchema,
    response: messageSchema,
  }),
  /** The signed-in user's profile. */
  profile: endpoint({ method: 'GET', path: '/api/account/profile', response: z.object({ profile: profileSchema }) }),
  /** Saves any subset of the profile's editable fields; answers with the whole profile. */
  updateProfile: endpoint({
    method: 'POST',
    path: '/api/account/profile',
    body: profileUpdateSchema,
    response: z.object({ profile: profileSchema }),
  }),
  /** Changes the password (current one required: 400 with an issue on `currentPassword` when wrong); ends every other session, keeps this one. */
  changePassword: endpoint({
    method: 'POST',
    path: '/api/account/password',
    body: changePasswordSchema,
    response: messageSchema,
  }),
  /** The user's orders, newest first (items, totals, status; bank details while unpaid). */
  orders: endpoint({ method: 'GET', path: '/api/account/orders', response: z.object({ orders: z.array(orderViewSchema) }) }),
  /** One of the user's orders by number; 404 for anyone else's. */
  order: endpoint({ method: 'GET', path: '/api/account/orders/:number', response: z.object({ order: orderViewSchema }) }),
  /** The bank transfers behind the user's orders, newest first. */
  transactions: endpoint({
    method: 'GET',
    path: '/api/account/transactions',
    response: z.object({ transactions: z.array(transactionSchema) }),
  }),
  /** The reviews the user wrote, newest first. */
  reviews: endpoint({ method: 'GET', path: '/api/account/reviews', response: z.object({ reviews: z.array(reviewSchema) }) }),
  /** Products from the user's delivered orders, each with the user's review if any: what /ratings can offer to rate. */
  reviewable: endpoint({
    method: 'GET',
    path: '/api/account/reviewable',
    response: z.object({ products: z.array(reviewableSchema) }),
  }),
  /**
   * Rates a product from one of the user's delivered orders (403 `not_purchased` otherwise):
   * 201 for a new review, 200 when it replaces the user's earlier review of the product.
   * Answers with the product's new rating and review count.
   */
  saveReview: endpoint({
    method: 'POST',
    path: '/api/account/reviews',
    body: saveReviewSchema,
    response: z.object({
      review: reviewSchema,
      product: z.object({ id: z.string(), rating: z.number(), reviews: z.number().int() }),
    }),
  }),
  /** How the store takes payment (public): the bank account and the steps. */
  paymentMethods: endpoint({ method: 'GET', path: '/api/payment-methods', response: paymentMethodsSchema }),
};
