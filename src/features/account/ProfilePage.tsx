import { zodResolver } from '@hookform/resolvers/zod';
import { type KeyboardEvent, type ReactNode, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { SelectField, TextField } from '../forms/Field.tsx';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { formatNigerianPhone, NIGERIAN_STATES, type NigerianState } from '../orders/nigeria.ts';
import { accountApi, type Profile, profileUpdateSchema } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountShell } from './AccountShell.tsx';
import { FormStatus, type FormStatusValue, type TabProps } from './ProfileParts.tsx';
import { NotificationsTab, PreferencesTab } from './ProfileSettings.tsx';
import { SecurityTab } from './ProfileSecurity.tsx';
import { refreshSession } from './session.browser.ts';
import { accountErrorMessage, accountLoadFailed } from './use-account.browser.ts';

/** /profile: personal details, security, notifications and preferences, in tabs. */
export default function ProfilePage() {
  return (
    <AccountShell current="/profile" purpose="see and change your profile">
      {() => <ProfileView />}
    </AccountShell>
  );
}

const TABS = [
  { id: 'personal', label: 'Personal' },
  { id: 'security', label: 'Security' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'preferences', label: 'Preferences' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** The tab named in the address (/profile#security), so a link or a reload opens it. */
function tabFromHash(): TabId {
  const hash = window.location.hash.slice(1);
  return TABS.find((t) => t.id === hash)?.id ?? 'personal';
}

function ProfileView() {
  const { loaded, update, reload } = useLoaded((signal) => callApi(accountApi.profile, { signal }).then((r) => r.profile), {
    errorMessage: accountLoadFailed,
  });
  const onSaved = (profile: Profile) => update(() => profile);
  return (
    <LoadedView loaded={loaded} what="your profile" retry={reload} look="account">
      {(profile) => (
        <Tabs
          panels={{
            personal: <PersonalTab profile={profile} onSaved={onSaved} />,
            security: <SecurityTab profile={profile} onSaved={onSaved} />,
            notifications: <NotificationsTab profile={profile} onSaved={onSaved} />,
            preferences: <PreferencesTab profile={profile} onSaved={onSaved} />,
          }}
        />
      )}
    </LoadedView>
  );
}

/**
 * The WAI-ARIA tabs pattern: one tab stop (the selected tab), arrow keys move and select
 * (Home/End to the ends), and every panel stays mounted so a half-filled form survives
 * a look at another tab.
 */
function Tabs({ panels }: { panels: Record<TabId, ReactNode> }) {
  const [selected, setSelected] = useState<TabId>(tabFromHash);
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());

  const select = (id: TabId, focus = false) => {
    setSelected(id);
    window.history.replaceState(null, '', `#${id}`);
    if (focus) tabRefs.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const at = TABS.findIndex((t) => t.id === selected);
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: TABS.length - 1 }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    select(TABS[(to + TABS.length) % TABS.length]!.id, true);
  };

  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label="Profile sections">
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            className="tabs__tab"
            aria-selected={selected === tab.id}
            aria-controls={`panel-${tab.id}`}
            tabIndex={selected === tab.id ? 0 : -1}
            onClick={() => select(tab.id)}
            onKeyDown={onKeyDown}
            ref={(el) => {
              if (el) tabRefs.current.set(tab.id, el);
              else tabRefs.current.delete(tab.id);
            }}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`panel-${tab.id}`}
          className="tabs__panel card"
          aria-labelledby={`tab-${tab.id}`}
          hidden={selected !== tab.id}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes the panel a tab stop after its tab
          tabIndex={0}
        >
          {panels[tab.id]}
        </div>
      ))}
    </div>
  );
}

/** Empty means "not given" (null) for the optional fields; anything else meets the checkout's own rule. */
const blankToNull = z
  .string()
  .trim()
  .transform((value) => value || null);

/** The personal tab: the name, and the phone and default delivery address the checkout starts from. */
const personalSchema = z.object({
  name: profileUpdateSchema.shape.name.unwrap(),
  phone: blankToNull.pipe(profileUpdateSchema.shape.phone.unwrap()),
  address: blankToNull.pipe(profileUpdateSchema.shape.address.unwrap()),
  city: blankToNull.pipe(profileUpdateSchema.shape.city.unwrap()),
  // The select offers only the states (or nothing); the enum checks it all the same.
  state: blankToNull.transform((value) => value as NigerianState | null).pipe(profileUpdateSchema.shape.state.unwrap()),
});
type PersonalInput = z.input<typeof personalSchema>;
type Personal = z.output<typeof personalSchema>;

const personalValues = (p: Profile): PersonalInput => ({
  name: p.name ?? '',
  phone: p.phone ? formatNigerianPhone(p.phone) : '',
  address: p.address ?? '',
  city: p.city ?? '',
  state: p.state ?? '',
});

function PersonalTab({ profile, onSaved }: TabProps) {
  const form = useForm<PersonalInput, unknown, Personal>({
    resolver: zodResolver(personalSchema),
    defaultValues: personalValues(profile),
    shouldFocusError: true,
  });
  const [status, setStatus] = useState<FormStatusValue>(null);
  const busy = form.formState.isSubmitting;

  const save = form.handleSubmit(async (values) => {
    setStatus(null);
    try {
      const { profile: saved } = await callApi(accountApi.updateProfile, { body: values });
      form.reset(personalValues(saved));
      onSaved(saved);
      setStatus({ kind: 'success', text: 'Your details are saved. The checkout will fill them in for you.' });
      // The header greets the user by name.
      void refreshSession();
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 400) {
        const rest = showServerIssues(form, error.issues);
        if (!rest.length) return;
      }
      setStatus({ kind: 'error', text: accountErrorMessage(error, 'We could not save your details. Please try again.') });
    }
  });

  return (
    <form className="account-form" onSubmit={save} noValidate aria-labelledby="personal-title">
      <h2 id="personal-title">Personal details</h2>
      <p className="muted">
        Signed in as <strong>{profile.email}</strong>. Your phone number and delivery address are optional here; saved, they fill
        in the checkout for you.
      </p>
      <TextField form={form} name="name" id="profile-name" label="Full name" autoComplete="name" required />
      <TextField form={form} name="phone" id="profile-phone" label="Phone number" type="tel" inputMode="tel" autoComplete="tel" />
      <TextField form={form} name="address" id="profile-address" label="Delivery address" autoComplete="street-address" />
      <div className="account-form__pair">
        <TextField form={form} name="city" id="profile-city" label="City" autoComplete="address-level2" />
        <SelectField
          form={form}
          name="state"
          id="profile-state"
          label="State"
          autoComplete="address-level1"
          placeholder="Choose your state"
          choices={NIGERIAN_STATES}
        />
      </div>
      <FormStatus status={status} />
      <div className="account__actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save details'}
        </button>
      </div>
    </form>
  );
}
