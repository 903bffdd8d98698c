import { useState } from 'react';
import { callApi } from '../../lib/api-client.browser.ts';
import { accountApi, type Profile } from './account-api.ts';
import { accountErrorMessage } from './use-account.browser.ts';

/** What every tab of /profile gets. */
export interface TabProps {
  profile: Profile;
  /** The profile as the last save answered it. */
  onSaved: (profile: Profile) => void;
}

export type FormStatusValue = { kind: 'success' | 'error'; text: string } | null;

/** A form's outcome: a polite status for success (always in the page, so it is announced), an alert for a failure. */
export function FormStatus({ status }: { status: FormStatusValue }) {
  return (
    <>
      <p className="form-message" role="status" data-kind="success">
        {status?.kind === 'success' ? status.text : ''}
      </p>
      {status?.kind === 'error' && (
        <p className="form-message" role="alert" data-kind="error">
          {status.text}
        </p>
      )}
    </>
  );
}

/** "Resend verification e-mail", with what the Worker answered (the Security tab and the account pages' notice). */
export function ResendVerification() {
  const [status, setStatus] = useState<FormStatusValue>(null);
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setStatus(null);
    setBusy(true);
    try {
      const { message } = await callApi(accountApi.resendVerification);
      setStatus({ kind: 'success', text: message });
    } catch (error) {
      setStatus({ kind: 'error', text: accountErrorMessage(error, 'We could not send the e-mail. Please try again.') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="account-resend">
      <button type="button" className="btn btn-outline" onClick={() => void resend()} disabled={busy}>
        {busy ? 'Sending…' : 'Resend verification e-mail'}
      </button>
      <FormStatus status={status} />
    </div>
  );
}
