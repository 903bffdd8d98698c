import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { callApi } from '../../lib/api-client.browser.ts';
import { CheckboxField, RadioGroupField } from '../forms/Field.tsx';
import { setTheme } from '../theme/theme.browser.ts';
import { accountApi, type Profile, type Theme } from './account-api.ts';
import { FormStatus, type FormStatusValue, type TabProps } from './ProfileParts.tsx';
import { accountErrorMessage } from './use-account.browser.ts';

/** The notifications tab: which optional e-mails the user wants. */
export function NotificationsTab({ profile, onSaved }: TabProps) {
  const form = useForm<Profile['notifications']>({ defaultValues: profile.notifications });
  const [status, setStatus] = useState<FormStatusValue>(null);
  const busy = form.formState.isSubmitting;
  const id = useId();

  const save = form.handleSubmit(async (notifications) => {
    setStatus(null);
    try {
      const { profile: saved } = await callApi(accountApi.updateProfile, { body: { notifications } });
      form.reset(saved.notifications);
      onSaved(saved);
      setStatus({ kind: 'success', text: 'Your e-mail choices are saved.' });
    } catch (error) {
      setStatus({ kind: 'error', text: accountErrorMessage(error, 'We could not save your choices. Please try again.') });
    }
  });

  return (
    <form className="account-form" onSubmit={save} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Notifications</h2>
      <p className="muted">We always e-mail you about your orders’ payment. Choose what else you want to hear about.</p>
      <CheckboxField
        form={form}
        name="orderUpdates"
        id={`${id}-orders`}
        label="Order updates"
        hint="When your order ships and when it arrives."
      />
      <CheckboxField
        form={form}
        name="promotions"
        id={`${id}-promos`}
        label="Promotions"
        hint="Offers and new products, now and then."
      />
      <FormStatus status={status} />
      <div className="account__actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save notifications'}
        </button>
      </div>
    </form>
  );
}

/** The themes the preferences tab offers. */
const THEMES = [
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
] as const satisfies readonly { value: Theme; label: string }[];

/** Applies a theme on this page and keeps it in this browser. */
function setThemeHere(theme: Theme) {
  setTheme(theme === 'dark');
}

/** The preferences tab: the theme, saved with the profile and applied at once. */
export function PreferencesTab({ profile, onSaved }: TabProps) {
  const form = useForm<{ theme: Theme }>({ defaultValues: { theme: profile.theme } });
  const [status, setStatus] = useState<FormStatusValue>(null);
  const busy = form.formState.isSubmitting;
  const id = useId();

  const save = form.handleSubmit(async ({ theme }) => {
    setStatus(null);
    try {
      const { profile: saved } = await callApi(accountApi.updateProfile, { body: { theme } });
      form.reset({ theme: saved.theme });
      onSaved(saved);
      setThemeHere(saved.theme);
      setStatus({ kind: 'success', text: `Saved: the ${saved.theme} theme is on.` });
    } catch (error) {
      setStatus({ kind: 'error', text: accountErrorMessage(error, 'We could not save your preference. Please try again.') });
    }
  });

  return (
    <form className="account-form" onSubmit={save} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preferences</h2>
      <RadioGroupField form={form} name="theme" id={`${id}-theme`} label="Theme" choices={THEMES} />
      <p className="muted">Saved with your account and applied on this device now.</p>
      <FormStatus status={status} />
      <div className="account__actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save preferences'}
        </button>
      </div>
    </form>
  );
}
