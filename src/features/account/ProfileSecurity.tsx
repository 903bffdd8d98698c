import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { accountApi, changePasswordSchema, type SignedInSession } from './account-api.ts';
import { PasswordField } from './PasswordField.tsx';
import { PASSWORD_RULES } from './password-policy.ts';
import { FormStatus, type FormStatusValue, type TabProps } from './ProfileParts.tsx';
import { refreshSession } from './session.browser.ts';
import { accountErrorMessage } from './use-account.browser.ts';

type PasswordChange = z.input<typeof changePasswordSchema>;

/** The security tab: the e-mail address's confirmation, the password, and other devices. */
export function SecurityTab({ profile, onSaved }: TabProps) {
  return (
    <div className="account-sections">
      <EmailSection profile={profile} onSaved={onSaved} />
      <PasswordSection profile={profile} onSaved={onSaved} />
      <DevicesSection />
    </div>
  );
}

function EmailSection({ profile }: TabProps) {
  return (
    <section aria-labelledby="email-title">
      <h2 id="email-title">E-mail address</h2>
      <p>
        <strong>{profile.email}</strong>{' '}
        {profile.emailVerified ? (
          <span className="account-badge account-badge--ok">Confirmed</span>
        ) : (
          <span className="account-badge account-badge--warn">Not confirmed</span>
        )}
      </p>
      {/* Unconfirmed, every account page says so above, with the button to resend the link (AccountShell.tsx). */}
    </section>
  );
}

function PasswordSection({ profile }: TabProps) {
  const form = useForm<PasswordChange>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '' },
    shouldFocusError: true,
  });
  const [status, setStatus] = useState<FormStatusValue>(null);
  // Each password shows as text on its own toggle.
  const [shown, setShown] = useState({ current: false, new: false });
  const busy = form.formState.isSubmitting;

  if (!profile.hasPassword) {
    return (
      <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <p className="muted">
          You sign in with Google. To add a password as well, use “Forgot password?” on the <a href="/login">sign-in page</a>: we
          will e-mail you a link to choose one.
        </p>
      </section>
    );
  }

  const change = form.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const { message } = await callApi(accountApi.changePassword, { body: values });
      form.reset();
      setStatus({ kind: 'success', text: message });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 400) {
        const rest = showServerIssues(form, error.issues);
        if (!rest.length) return;
      }
      setStatus({ kind: 'error', text: accountErrorMessage(error, 'We could not change your password. Please try again.') });
    }
  });

  return (
    <form className="account-form" onSubmit={change} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <input type="text" name="username" autoComplete="username" value={profile.email} readOnly hidden />
      <PasswordField
        form={form}
        name="currentPassword"
        id="current-password"
        label="Current password"
        autoComplete="current-password"
        shown={shown.current}
        onToggle={() => setShown({ ...shown, current: !shown.current })}
        toggleLabel="Show current password"
      />
      <PasswordField
        form={form}
        name="newPassword"
        id="new-password"
        label="New password"
        autoComplete="new-password"
        hint={PASSWORD_RULES}
        shown={shown.new}
        onToggle={() => setShown({ ...shown, new: !shown.new })}
        toggleLabel="Show new password"
      />
      <p className="muted">Changing it signs you out on every other device.</p>
      <FormStatus status={status} />
      <div className="account__actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Changing…' : 'Change password'}
        </button>
      </div>
    </form>
  );
}

/** Where the account is signed in (one row per sign-in), each with its own "Sign out", and "sign out everywhere". */
function DevicesSection() {
  const { loaded, reload } = useLoaded(async (signal) => (await callApi(accountApi.sessions, { signal })).sessions, {
    errorMessage: (error) => accountErrorMessage(error, 'We could not load where you are signed in. Please try again.'),
  });
  const [status, setStatus] = useState<FormStatusValue>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (key: string, run: () => Promise<{ message: string }>, then?: () => Promise<void> | void) => {
    setStatus(null);
    setBusy(key);
    try {
      const { message } = await run();
      setStatus({ kind: 'success', text: message });
      await (then ?? reload)();
    } catch (error) {
      setStatus({ kind: 'error', text: accountErrorMessage(error) });
    } finally {
      setBusy(null);
    }
  };
  const endOne = (session: SignedInSession) =>
    act(session.id, () => callApi(accountApi.endSession, { params: { id: session.id } }));
  const others = () => act('others', () => callApi(accountApi.signOutOthers));
  // This browser is signed out too: the page's session store learns it, and the account pages send it to sign in.
  const everywhere = () =>
    act(
      'all',
      () => callApi(accountApi.signOutAll),
      async () => {
        await refreshSession();
        window.location.assign('/login');
      },
    );

  return (
    <section aria-labelledby="devices-title">
      <h2 id="devices-title">Where you are signed in</h2>
      <p className="muted">Signed in on a phone or computer you no longer use, or do not recognise? Sign it out here.</p>
      <LoadedView loaded={loaded} what="where you are signed in" retry={reload} look="account">
        {(sessions) => (
          <ul className="account-sessions" aria-label="Signed-in devices">
            {sessions.map((session) => (
              <li key={session.id} className="account-sessions__item">
                <div>
                  <strong>{session.label}</strong>{' '}
                  {session.current && <span className="account-badge account-badge--ok">This device</span>}
                  <p className="muted">
                    Signed in {formatLagosTime(session.createdAt)} · last active {formatLagosTime(session.lastSeenAt)}
                  </p>
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="btn btn-outline"
                    onClick={() => void endOne(session)}
                    disabled={busy !== null}
                    aria-label={`Sign out ${session.label}, last active ${formatLagosTime(session.lastSeenAt)}`}
                  >
                    {busy === session.id ? 'Signing out…' : 'Sign out'}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </LoadedView>
      <div className="account__actions">
        <button type="button" className="btn btn-outline" onClick={() => void others()} disabled={busy !== null}>
          {busy === 'others' ? 'Signing out…' : 'Sign out of all other devices'}
        </button>
        <button type="button" className="btn btn-outline" onClick={() => void everywhere()} disabled={busy !== null}>
          {busy === 'all' ? 'Signing out…' : 'Sign out everywhere'}
        </button>
      </div>
      <FormStatus status={status} />
    </section>
  );
}
