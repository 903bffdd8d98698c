import { useStore } from '@nanostores/react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type FieldValues, get, type Path, type UseFormReturn, useForm } from 'react-hook-form';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { TextField } from '../forms/Field.tsx';
import { lazyZodResolver } from '../forms/lazy-resolver.browser.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import type { ForgotForm, ResetForm, SignInForm, SignUpForm, VerifyForm } from './login-schemas.ts';
import { type LoginSchemas, loadLoginModules, startGoogleSignIn } from './login-modules.browser.ts';
import { NewPasswordFields, PasswordField } from './PasswordField.tsx';
import { $auth, loadSession, refreshSession, SESSION_NOT_KNOWN } from './session.browser.ts';
import { RETURN_PARAM, safeReturnPath } from './session.ts';
import './LoginForm.css';

type Mode = 'signin' | 'signup' | 'forgot' | 'reset' | 'verify';

const HEADINGS: Record<Mode, { title: string; intro: string }> = {
  signin: { title: 'Welcome back!', intro: 'Sign in to follow your orders and check out faster.' },
  signup: { title: 'Create an account', intro: 'Keep your delivery details, follow your orders and rate what you bought.' },
  forgot: {
    title: 'Forgot your password?',
    intro: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
  },
  reset: {
    title: 'Choose a new password',
    intro: 'Pick a new password for your account. It signs you out on every other device.',
  },
  verify: {
    title: 'Confirm your e-mail address',
    intro:
      'To finish, type the password you chose when you created the account. If you did not create it, or forgot the password, choose a new one: anything set up before with this address will stop working.',
  },
};

/** The API's code for a verify link opened without proof of who signed up (account-api.ts). */
const PASSWORD_REQUIRED = 'password_required';

const NETWORK_FAILED = 'Network error. Please try again.';
const GOOGLE_FAILED = 'Google sign-in could not start. Please try again.';
const SIGN_UP_EXISTING =
  'We have sent a message to that address. If it already had an account, sign in with its password, or choose "Forgot password?".';

/** The session as the server rendered the page: not known yet. */

/** Where to go after signing in: `?next=` if it is a path on this site, else the profile. */
const returnPath = () => safeReturnPath(new URLSearchParams(window.location.search).get(RETURN_PARAM));

/** What the banner says about a failed request; validation issues also go to the form's fields. */
function failureMessage<T extends FieldValues>(
  error: unknown,
  form?: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  onPasswordRefused?: (message: string) => void,
): string {
  if (!(error instanceof ApiRequestError)) return NETWORK_FAILED;
  if (error.status === 400 && error.issues.length > 0) {
    if (form) showServerIssues(form, error.issues);
    const password = error.issues.find((issue) => issue.field === 'password');
    if (password) {
      onPasswordRefused?.(password.message);
      return password.message;
    }
    // A form's own field at fault: its words; a refusal of another kind (a used link): the API's message.
    if (error.code === 'invalid_request') return error.issues[0]!.message;
  }
  return error.message;
}

/** What was typed into the pre-rendered form before the island hydrated (the sign-in form is the first one shown). */
function typedBeforeHydration(id: string): string {
  return typeof document === 'undefined' ? '' : (document.querySelector<HTMLInputElement>(`#${id}`)?.value ?? '');
}

interface Banners {
  fail(message: string): void;
  note(message: string): void;
  clear(): void;
}

interface FormProps {
  /** The island has hydrated: the submit button works (before, Enter must not send the form as a GET). */
  ready: boolean;
  banners: Banners;
  /** The e-mail typed so far, carried from one mode to the next. */
  email: string;
  onEmail: (email: string) => void;
  /** A request is under way (the page's other buttons wait). */
  onWorking: (working: boolean) => void;
  switchTo: (mode: Mode, notice?: string) => void;
}

/** The e-mail field every form here that asks for one starts with. */
function EmailField<T extends { email: string }>({ form, id }: { form: UseFormReturn<T>; id: string }) {
  return (
    <TextField
      form={form}
      name={'email' as Path<T>}
      id={id}
      label="Email"
      type="email"
      autoComplete="email"
      inputMode="email"
      required
    />
  );
}

/** Keeps the parent's copy of the typed e-mail. */
function useRememberEmail<T extends { email: string }>(form: Pick<UseFormReturn<T>, 'watch'>, onEmail: (email: string) => void) {
  useEffect(() => {
    const watching = form.watch((values) => onEmail(String(values.email ?? '')));
    return () => watching.unsubscribe();
  }, [form, onEmail]);
}

/** Goes to the page the shopper came from, leaving the button in its processing state. */
function leave(setLeaving: (leaving: boolean) => void) {
  setLeaving(true);
  window.location.assign(returnPath());
}

/** The forms' schemas come with the login modules; `signIn.load` fetches them (and the resolver) once the island is live. */
const loadSchemas = () => loadLoginModules().then((modules) => modules.schemas);
const signIn = lazyZodResolver<SignInForm>(() => loadSchemas().then((s) => s.signInFormSchema));
const signUpResolver = lazyZodResolver<SignUpForm>(() => loadSchemas().then((s) => s.signUpFormSchema)).resolver;
const forgotResolver = lazyZodResolver<ForgotForm>(() => loadSchemas().then((s) => s.forgotFormSchema)).resolver;
const resetResolver = lazyZodResolver<ResetForm>(() => loadSchemas().then((s) => s.resetFormSchema)).resolver;
const verifyResolver = lazyZodResolver<VerifyForm>(() => loadSchemas().then((s) => s.verifyFormSchema)).resolver;

function SignIn({ ready, banners, email, onEmail, onWorking, switchTo }: FormProps) {
  const [typedEarly] = useState<SignInForm>(() => ({
    email: typedBeforeHydration('login-email') || email,
    password: typedBeforeHydration('login-password'),
  }));
  const form = useForm<SignInForm>({ resolver: signIn.resolver, defaultValues: typedEarly, shouldFocusError: true });
  useRememberEmail(form, onEmail);
  const [shown, setShown] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const busy = form.formState.isSubmitting || leaving;

  const submit = form.handleSubmit(async ({ email, password }) => {
    banners.clear();
    onWorking(true);
    try {
      const { accountApi } = await loadLoginModules();
      await callApi(accountApi.signIn, { body: { email, password } });
      leave(setLeaving);
    } catch (error) {
      banners.fail(failureMessage(error, form));
      onWorking(false);
    }
  }, banners.clear);

  return (
    <form className="login__form" onSubmit={submit} noValidate aria-label="Sign in">
      <EmailField form={form} id="login-email" />
      <PasswordField
        form={form}
        name="password"
        id="login-password"
        label="Password"
        autoComplete="current-password"
        shown={shown}
        onToggle={() => setShown(!shown)}
      />
      <p className="login__forgot">
        <button type="button" className="link-button" onClick={() => switchTo('forgot')} disabled={busy}>
          Forgot password?
        </button>
      </p>
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || busy}>
        {busy ? 'Signing in…' : 'Sign In'}
      </button>
    </form>
  );
}

function SignUp({ ready, banners, email, onEmail, onWorking, switchTo, schemas }: FormProps & { schemas: LoginSchemas }) {
  const form = useForm<SignUpForm>({
    resolver: signUpResolver,
    defaultValues: { email, password: '', confirm: '' },
    shouldFocusError: true,
  });
  useRememberEmail(form, onEmail);
  const [leaving, setLeaving] = useState(false);

  return (
    <ChoosePasswordForm
      form={form}
      ready={ready}
      banners={banners}
      onWorking={onWorking}
      rules={schemas.PASSWORD_CHECKLIST}
      idPrefix="signup"
      label="Create an account"
      fields={{ label: 'Password', confirmLabel: 'Confirm password' }}
      button={{ idle: 'Create Account', busy: 'Creating your account…' }}
      busy={leaving}
      before={<EmailField form={form} id="signup-email" />}
      save={async ({ email, password }) => {
        const { accountApi } = await loadLoginModules();
        await callApi(accountApi.signUp, { body: { email, password } });
        // Sign-up does not sign in: the same e-mail and password do.
        try {
          await callApi(accountApi.signIn, { body: { email, password } });
        } catch (error) {
          onWorking(false);
          // The address already had an account (its owner got an e-mail about this): sign in with its password.
          if (error instanceof ApiRequestError && error.code === 'invalid_credentials') switchTo('signin', SIGN_UP_EXISTING);
          else banners.fail(failureMessage(error));
          return;
        }
        leave(setLeaving);
      }}
    />
  );
}

function Forgot({ ready, banners, email, onEmail, onWorking }: FormProps) {
  const form = useForm<ForgotForm>({ resolver: forgotResolver, defaultValues: { email }, shouldFocusError: true });
  useRememberEmail(form, onEmail);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async ({ email }) => {
    banners.clear();
    onWorking(true);
    try {
      const { accountApi } = await loadLoginModules();
      // The same answer whether or not the address has an account.
      const { message } = await callApi(accountApi.forgotPassword, { body: { email } });
      banners.note(message);
    } catch (error) {
      banners.fail(failureMessage(error, form));
    } finally {
      onWorking(false);
    }
  }, banners.clear);

  return (
    <form className="login__form" onSubmit={submit} noValidate aria-label="Reset your password">
      <EmailField form={form} id="forgot-email" />
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || busy}>
        {busy ? 'Sending…' : 'Send Reset Link'}
      </button>
    </form>
  );
}

/** The reset and verify forms' new password: its form, kept by the caller (the verify page switches forms and back). */
function useNewPasswordForm() {
  return useForm<ResetForm>({ resolver: resetResolver, defaultValues: { password: '', confirm: '' }, shouldFocusError: true });
}

/**
 * A form that chooses a password (sign-up, the reset link, a verify link claimed with a new
 * password): the password and its confirmation under the policy's checklist, highlighted when
 * the password is refused. `save` sends the values (the page is working meanwhile) and throws
 * what the API refused; `before` comes ahead of the passwords, `children` between them and the
 * button.
 */
function ChoosePasswordForm<T extends ResetForm>({
  form,
  ready,
  banners,
  onWorking,
  rules,
  idPrefix,
  label,
  fields = { label: 'New password', confirmLabel: 'Confirm new password' },
  button,
  busy = false,
  save,
  before,
  children,
}: Pick<FormProps, 'ready' | 'banners' | 'onWorking'> & {
  form: UseFormReturn<T>;
  rules: LoginSchemas['PASSWORD_CHECKLIST'];
  idPrefix: string;
  /** The form's accessible name. */
  label: string;
  /** The two password fields' labels. */
  fields?: { label: string; confirmLabel: string };
  button: { idle: string; busy: string };
  /** Busy besides this form's own submit (the page is on its way elsewhere). */
  busy?: boolean;
  save: (values: T) => Promise<void>;
  before?: ReactNode;
  children?: ReactNode;
}) {
  const [rulesAlert, setRulesAlert] = useState(false);
  const working = busy || form.formState.isSubmitting;

  const submit = form.handleSubmit(
    async (values) => {
      banners.clear();
      setRulesAlert(false);
      onWorking(true);
      try {
        await save(values);
      } catch (error) {
        // The policy's error: the checklist is checked again and highlighted, the server's words in the banner.
        banners.fail(failureMessage(error, form, () => setRulesAlert(true)));
        onWorking(false);
      }
    },
    (errors) => {
      banners.clear();
      setRulesAlert(Boolean(get(errors, 'password')));
    },
  );

  return (
    <form className="login__form" onSubmit={submit} noValidate aria-label={label}>
      {before}
      <NewPasswordFields form={form} idPrefix={idPrefix} {...fields} rules={rules} rulesAlert={rulesAlert} />
      {children}
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || working}>
        {working ? button.busy : button.idle}
      </button>
    </form>
  );
}

function Reset({ ready, banners, onWorking, switchTo, schemas, token }: FormProps & { schemas: LoginSchemas; token: string }) {
  const form = useNewPasswordForm();
  return (
    <ChoosePasswordForm
      form={form}
      ready={ready}
      banners={banners}
      onWorking={onWorking}
      rules={schemas.PASSWORD_CHECKLIST}
      idPrefix="reset"
      label="Choose a new password"
      button={{ idle: 'Set New Password', busy: 'Saving…' }}
      save={async ({ password }) => {
        const { accountApi } = await loadLoginModules();
        const { message } = await callApi(accountApi.resetPassword, { body: { token, password } });
        // Every session of the account ended, this browser's too.
        void refreshSession();
        switchTo('signin', message);
        onWorking(false);
      }}
    />
  );
}

/** The verify link, proven with the password chosen at sign-up; or a new password that claims the address. */
function Verify({ ready, banners, onWorking, schemas, token }: FormProps & { schemas: LoginSchemas; token: string }) {
  const [claim, setClaim] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [shown, setShown] = useState(false);
  // Until the link is checked the page shows the sign-in form, and a shopper who came to confirm
  // may already have typed their password there: it is the one asked for here, so it comes along
  // (read while the sign-in form is still on the page, as this form first renders).
  const [typedEarly] = useState(() => typedBeforeHydration('login-password'));
  const known = useForm<VerifyForm>({
    resolver: verifyResolver,
    defaultValues: { password: typedEarly },
    shouldFocusError: true,
  });
  const chosen = useNewPasswordForm();
  const busy = known.formState.isSubmitting || chosen.formState.isSubmitting || leaving;

  /** Confirms the address; throws what the API refused. */
  const verify = async (body: { password: string } | { newPassword: string }) => {
    const { accountApi } = await loadLoginModules();
    await callApi(accountApi.verifyEmail, { body: { token, ...body } });
    // The address is proven and this browser signed in.
    await refreshSession();
    leave(setLeaving);
  };
  const withPassword = known.handleSubmit(async ({ password }) => {
    banners.clear();
    onWorking(true);
    try {
      await verify({ password });
    } catch (error) {
      banners.fail(failureMessage(error, known));
      onWorking(false);
    }
  }, banners.clear);
  const switchButton = (
    <p className="login__forgot">
      <button
        type="button"
        className="link-button"
        disabled={busy}
        onClick={() => {
          banners.clear();
          setClaim(!claim);
        }}
      >
        {claim ? 'I know the password I chose' : 'I did not create this account, or forgot the password: choose a new one'}
      </button>
    </p>
  );

  if (claim) {
    return (
      <ChoosePasswordForm
        form={chosen}
        ready={ready}
        banners={banners}
        onWorking={onWorking}
        rules={schemas.PASSWORD_CHECKLIST}
        idPrefix="claim"
        label="Confirm with a new password"
        button={{ idle: 'Confirm and set password', busy: 'Confirming…' }}
        busy={busy}
        save={({ password }) => verify({ newPassword: password })}
      >
        {switchButton}
      </ChoosePasswordForm>
    );
  }
  return (
    <form className="login__form" onSubmit={withPassword} noValidate aria-label="Confirm with your password">
      <PasswordField
        form={known}
        name="password"
        id="verify-password"
        label="Password"
        autoComplete="current-password"
        shown={shown}
        onToggle={() => setShown(!shown)}
      />
      {switchButton}
      <button type="submit" className="btn btn-primary btn-block" disabled={!ready || busy}>
        {busy ? 'Confirming…' : 'Confirm e-mail address'}
      </button>
    </form>
  );
}

/**
 * /login: sign in ('Welcome back!') or create an account, with e-mail and password or
 * Google; 'Forgot password?'; and the links from account e-mails (`?verify=`, `?reset=`),
 * and Google's failures (`?error=`). Failures show in a banner above the form. After
 * signing in the shopper goes back to `?next=` (a path on this site) or to the profile.
 *
 * The server renders the sign-in form; what the address asks for is read after hydration.
 */
export default function LoginForm() {
  const auth = useStore($auth, { ssr: () => SESSION_NOT_KNOWN });
  const [mode, setMode] = useState<Mode>('signin');
  const [ready, setReady] = useState(false);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [working, setWorking] = useState(false);
  const [schemas, setSchemas] = useState<LoginSchemas | null>(null);
  const [resetToken, setResetToken] = useState('');
  const [verifyToken, setVerifyToken] = useState('');
  const [email, setEmail] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  const banners: Banners = {
    fail: (message) => {
      setNotice('');
      setError(message);
    },
    note: (message) => {
      setError('');
      setNotice(message);
    },
    clear: () => {
      setError('');
      setNotice('');
    },
  };

  /** Changes mode (the sign-up and reset forms need the policy's checklist first), with focus on the new heading. */
  const switchTo = async (next: Mode, message = '', focus = true) => {
    banners.clear();
    if (next === 'signup' || next === 'reset' || next === 'verify') {
      setWorking(true);
      try {
        setSchemas((await loadLoginModules()).schemas);
      } catch {
        banners.fail(NETWORK_FAILED);
        return;
      } finally {
        setWorking(false);
      }
    }
    moved.current = focus;
    setMode(next);
    if (message) setNotice(message);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus follows each change of mode
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    heading.current?.focus();
  }, [mode]);

  const confirmEmail = async (token: string) => {
    setNotice('Confirming your e-mail address…');
    try {
      const { accountApi } = await loadLoginModules();
      const { message } = await callApi(accountApi.verifyEmail, { body: { token } });
      // Opened in the browser that signed up: confirmed, and signed in afresh.
      await refreshSession();
      banners.note(message);
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === PASSWORD_REQUIRED) {
        // Who signed up must be proven too: ask for their password, or a new one.
        setVerifyToken(token);
        void switchTo('verify');
        return;
      }
      banners.fail(failureMessage(error));
    }
  };

  // Once, after hydration: the links from e-mails and Google's failures, read from the address.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per page; the handlers only set state
  useEffect(() => {
    setReady(true);
    void loadSession();
    signIn.load().catch(() => undefined);
    const url = new URL(window.location.href);
    const verify = url.searchParams.get('verify');
    const reset = url.searchParams.get('reset');
    const failure = url.searchParams.get('error');
    // The link's secret should not stay in the address bar, the history or a reload.
    for (const name of ['verify', 'reset', 'error']) url.searchParams.delete(name);
    if (verify !== null || reset !== null || failure !== null) window.history.replaceState(window.history.state, '', url.href);
    if (reset !== null) {
      setResetToken(reset);
      void switchTo('reset', '', false);
    } else if (verify !== null) {
      void confirmEmail(verify);
    }
    if (failure !== null) {
      void loadLoginModules().then(
        ({ schemas }) => banners.fail(schemas.signInErrorMessage(failure)),
        () => banners.fail('Google sign-in did not complete. Please try again.'),
      );
    }
  }, []);

  const google = async () => {
    banners.clear();
    setWorking(true);
    try {
      await startGoogleSignIn(returnPath());
      // The browser is on its way to Google: the button keeps its processing state.
    } catch {
      banners.fail(GOOGLE_FAILED);
      setWorking(false);
    }
  };

  const formProps: FormProps = {
    ready,
    banners,
    email,
    onEmail: setEmail,
    onWorking: setWorking,
    switchTo: (next, message) => void switchTo(next, message),
  };
  const googleKnown = !auth.loading;

  return (
    <section className="login card" aria-labelledby="login-heading">
      <h1 id="login-heading" ref={heading} tabIndex={-1}>
        {HEADINGS[mode].title}
      </h1>
      <p className="muted login__intro">{HEADINGS[mode].intro}</p>
      <div className="login__banner" data-kind="error" role="alert">
        {error}
      </div>
      <div className="login__banner" data-kind="notice" role="status">
        {notice}
      </div>

      {mode === 'signin' && <SignIn key="signin" {...formProps} />}
      {mode === 'signup' && schemas && <SignUp key="signup" {...formProps} schemas={schemas} />}
      {mode === 'forgot' && <Forgot key="forgot" {...formProps} />}
      {mode === 'reset' && schemas && <Reset key="reset" {...formProps} schemas={schemas} token={resetToken} />}
      {mode === 'verify' && schemas && <Verify key="verify" {...formProps} schemas={schemas} token={verifyToken} />}

      {(mode === 'signin' || mode === 'signup') && (
        <>
          <p className="login__or">
            <span>or</span>
          </p>
          <button
            type="button"
            className="btn btn-outline btn-block"
            disabled={!ready || working || !auth.google}
            aria-busy={working || undefined}
            onClick={() => void google()}
          >
            {googleKnown && !auth.google ? 'Google sign-in is not available' : 'Continue with Google'}
          </button>
          <p className="login__switch">
            {mode === 'signin' ? 'New to GTS?' : 'Already have an account?'}{' '}
            <button
              type="button"
              className="link-button"
              disabled={working}
              onClick={() => void switchTo(mode === 'signin' ? 'signup' : 'signin')}
            >
              {mode === 'signin' ? 'Create an account' : 'Sign in'}
            </button>
          </p>
        </>
      )}
      {(mode === 'forgot' || mode === 'reset' || mode === 'verify') && (
        <p className="login__switch">
          <button type="button" className="link-button" disabled={working} onClick={() => void switchTo('signin')}>
            Back to sign in
          </button>
        </p>
      )}
    </section>
  );
}
