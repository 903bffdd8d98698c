import type { ReactNode } from 'react';
import { Loading } from '../loaded/LoadedView.tsx';
import { ResendVerification } from './ProfileParts.tsx';
import type { SessionUser } from './session.ts';
import { signInUrl } from './session.ts';
import { useAuth } from './use-account.browser.ts';
import './account.css';

export const ACCOUNT_PAGES = [
  { href: '/profile', label: 'Profile' },
  { href: '/orders', label: 'Orders' },
  { href: '/trade-ins', label: 'Trade-ins' },
  { href: '/transactions', label: 'Transactions' },
  { href: '/ratings', label: 'Ratings' },
  { href: '/payment-methods', label: 'Payment methods' },
] as const;

export type AccountPath = (typeof ACCOUNT_PAGES)[number]['href'];

/** Links between the account pages, the current one marked. */
export function AccountNav({ current }: { current: AccountPath }) {
  return (
    <nav className="account-nav" aria-label="Your account">
      <ul>
        {ACCOUNT_PAGES.map((p) => (
          <li key={p.href}>
            <a href={p.href} aria-current={p.href === current ? 'page' : undefined}>
              {p.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

interface ShellProps {
  current: AccountPath;
  /** What signing in is for, e.g. "see your orders". */
  purpose: string;
  children: (user: SessionUser) => ReactNode;
}

/**
 * An account page's frame: the account links, then a loading state until the page's one
 * session check has answered (the same height as what follows, so nothing shifts), then
 * either the page (signed in) or a request to sign in that comes back here afterwards.
 */
export function AccountShell({ current, purpose, children }: ShellProps) {
  const auth = useAuth();
  return (
    <div className="account">
      <AccountNav current={current} />
      <div className="account__body">
        {auth.loading ? (
          <Loading what="your account" look="account" />
        ) : auth.user ? (
          <>
            {!auth.user.emailVerified && <ConfirmEmailNotice email={auth.user.email} />}
            {children(auth.user)}
          </>
        ) : (
          <SignInPrompt purpose={purpose} />
        )}
      </div>
    </div>
  );
}

/**
 * Until the account's address is confirmed, every account page says so: a shopper who signed up
 * with the address of earlier guest orders would otherwise find "No orders yet" and no reason.
 */
function ConfirmEmailNotice({ email }: { email: string }) {
  return (
    <section className="card account-confirm" aria-labelledby="account-confirm-title">
      <h2 id="account-confirm-title">Confirm your e-mail address</h2>
      <p>
        We sent a link to <strong>{email}</strong>. Until you open it, orders you placed as a guest with this address do not show
        in your account.
      </p>
      <ResendVerification />
    </section>
  );
}

function SignInPrompt({ purpose }: { purpose: string }) {
  // Rendered only after the session check, in the browser: the current address is known.
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  return (
    <section className="card account__signin" aria-labelledby="account-signin-title">
      <h2 id="account-signin-title">Please sign in</h2>
      <p>Sign in to {purpose}. We will bring you back to this page afterwards.</p>
      <p>
        <a className="btn btn-primary" href={signInUrl(here)}>
          Sign in
        </a>
      </p>
      <p className="muted">No account yet? You can create one on the same page.</p>
    </section>
  );
}
