import type { Profile } from './account-api.ts';

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
