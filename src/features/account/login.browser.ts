import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { showFieldMessage } from '../forms/field-messages.browser.ts';
import { offerEmailSuggestion } from '../forms/email-suggestion.browser.ts';
import {
  checkLoginForm,
  isLoginMode,
  LOGIN_FIELDS,
  LOGIN_HEADINGS,
  type LoginField,
  type LoginMode,
  PASSWORD_CHECKLIST,
  signInErrorMessage,
} from './login-forms.ts';
import { loadLoginModules, startGoogleSignIn } from './login-modules.browser.ts';
import { $auth, loadSession, refreshSession } from './session.browser.ts';
import { RETURN_PARAM, safeReturnPath } from './session.ts';

/**
 * /login's plain script (LoginPage.astro; no framework: decision 004). The page holds the
 * sign-in form; this script:
 *
 * - swaps in the form a shopper asks for (sign-up, forgot password, a reset or verify link's)
 *   from the page's templates, with focus on the heading and the typed e-mail carried along;
 * - checks a form before sending it (login-forms.ts: the Worker's rules and words, without zod),
 *   each field's message under it and focus on the first, the password policy as a checklist
 *   marked as the shopper types;
 * - sends it to the accounts API (its contract loads with the first form sent:
 *   login-modules.browser.ts) and shows the answer: the API's field messages under the fields,
 *   anything else in the banner; after signing in, goes back to `?next=` or the profile;
 * - reads what the address brings (`?verify=`, `?reset=`, Google's `?error=`) once, and takes
 *   the secrets out of the address bar;
 * - starts Google sign-in when the Worker says it is set up.
 *
 * The page says it is ready with `data-ready` on `[data-login]`.
 */

/** The API's code for a verify link opened without proof of who signed up (account-api.ts). */
const PASSWORD_REQUIRED = 'password_required';

const NETWORK_FAILED = 'Network error. Please try again.';
const GOOGLE_FAILED = 'Google sign-in could not start. Please try again.';
const RESET_LINK_DEAD = 'This reset link has expired or was already used. Enter your e-mail and we will send you a new one.';
const SIGN_UP_EXISTING =
  'We have sent a message to that address. If it already had an account, sign in with its password, or choose "Forgot password?".';

/** Where to go after signing in: `?next=` if it is a path on this site, else the profile. */
const returnPath = () => safeReturnPath(new URLSearchParams(window.location.search).get(RETURN_PARAM));

function login(root: HTMLElement) {
  const heading = root.querySelector<HTMLElement>('h1')!;
  const intro = root.querySelector<HTMLElement>('.login__intro')!;
  const errorBanner = root.querySelector<HTMLElement>('.login__banner[data-kind="error"]')!;
  const noticeBanner = root.querySelector<HTMLElement>('.login__banner[data-kind="notice"]')!;

  let mode: LoginMode = 'signin';
  /** A request is under way, or the page is on its way elsewhere: every button waits. */
  let working = false;
  /** The e-mail typed so far, carried from one form to the next. */
  let email = '';
  let resetToken = '';
  let verifyToken = '';

  const body = () => root.querySelector<HTMLElement>('.login__body')!;
  const form = () => body().querySelector<HTMLFormElement>('form')!;
  const input = (name: LoginField) => form().querySelector<HTMLInputElement>(`input[name="${name}"]`);

  const banners = {
    fail(message: string) {
      noticeBanner.textContent = '';
      errorBanner.textContent = message;
    },
    note(message: string) {
      errorBanner.textContent = '';
      noticeBanner.textContent = message;
    },
    clear() {
      errorBanner.textContent = '';
      noticeBanner.textContent = '';
    },
  };

  /**
   * Every button of the form's body: disabled while working; Google also while it is not set up.
   * A button disabled under the keyboard drops focus to the page: the submit button gets it back
   * when the form is done, unless something else has taken it meanwhile (a field with a problem).
   */
  let submitHadFocus = false;
  function showWorking(busy: boolean) {
    working = busy;
    const submit = form().querySelector<HTMLButtonElement>('button[type="submit"]');
    if (submit) {
      if (busy) submitHadFocus = document.activeElement === submit;
      submit.dataset.idleText ??= submit.textContent ?? '';
      submit.textContent = busy ? (form().dataset.busyText ?? submit.dataset.idleText) : submit.dataset.idleText;
      submit.disabled = busy;
      if (!busy && submitHadFocus && (document.activeElement === document.body || document.activeElement === null))
        submit.focus();
    }
    for (const button of body().querySelectorAll<HTMLButtonElement>('button[data-switch]')) button.disabled = busy;
    showGoogle();
  }

  function showGoogle() {
    const button = body().querySelector<HTMLButtonElement>('button[data-google]');
    if (!button) return;
    const auth = $auth.get();
    button.disabled = working || !auth.google;
    button.toggleAttribute('aria-busy', working);
    button.textContent = !auth.loading && !auth.google ? 'Google sign-in is not available' : 'Continue with Google';
  }

  /** Puts each message on its field (clearing the others) and focuses the first; answers whether there were any. */
  function showFieldMessages(messages: Partial<Record<string, string>>): boolean {
    let first: HTMLInputElement | undefined;
    for (const name of LOGIN_FIELDS[mode]) {
      const field = input(name);
      if (!field) continue;
      showFieldMessage(field, messages[name]);
      if (messages[name] && !first) first = field;
    }
    first?.focus();
    return first !== undefined;
  }

  /** The policy's checklist, marked against the typed password; `alert` highlights it (the password was refused). */
  function markRules(alert?: boolean) {
    const list = form().querySelector<HTMLElement>('[data-rules]');
    if (!list) return;
    const password = input('password')?.value ?? '';
    for (const rule of PASSWORD_CHECKLIST) {
      const item = list.querySelector<HTMLElement>(`[data-rule="${rule.id}"]`);
      if (!item) continue;
      const met = rule.met(password);
      item.toggleAttribute('data-met', met);
      const state = item.querySelector('[data-rule-state]');
      if (state) state.textContent = met ? ' (met)' : ' (not met yet)';
    }
    if (alert !== undefined) list.toggleAttribute('data-alert', alert);
  }

  /** What the banner says about a failed request; the API's field messages also go under the fields. */
  function failureMessage(error: unknown): string {
    if (!(error instanceof ApiRequestError)) return NETWORK_FAILED;
    if (error.status === 400 && error.issues.length > 0) {
      const fields = LOGIN_FIELDS[mode];
      const messages: Partial<Record<string, string>> = {};
      for (const issue of error.issues) {
        if ((fields as readonly string[]).includes(issue.field)) messages[issue.field] ??= issue.message;
      }
      showFieldMessages(messages);
      const password = error.issues.find((issue) => issue.field === 'password');
      if (password) {
        markRules(true);
        return password.message;
      }
      // A form's own field at fault: its words; a refusal of another kind (a used link): the API's message.
      if (error.code === 'invalid_request') return error.issues[0]!.message;
    }
    return error.message;
  }

  /** Shows another form, with its heading, the e-mail typed so far and (unless `focus` is false) focus on the heading. */
  function switchTo(next: LoginMode, notice = '', focus = true) {
    const template = root.querySelector<HTMLTemplateElement>(`template[data-template="${next}"]`);
    const current = body();
    if (next !== mode && template) {
      // The form leaving goes back into its template, so switching back finds it again.
      const leaving = root.querySelector<HTMLTemplateElement>(`template[data-template="${mode}"]`);
      const fresh = template.content.firstElementChild;
      if (!fresh) return;
      template.content.replaceChildren();
      current.replaceWith(fresh);
      if (leaving) leaving.content.replaceChildren(current);
      else {
        const holder = document.createElement('template');
        holder.dataset.template = mode;
        holder.content.appendChild(current);
        root.appendChild(holder);
      }
    }
    if (next !== mode) blank(form());
    mode = next;
    root.dataset.mode = next;
    heading.textContent = LOGIN_HEADINGS[next].title;
    intro.textContent = LOGIN_HEADINGS[next].intro;
    banners.clear();
    if (notice) banners.note(notice);
    const emailField = input('email');
    if (emailField) {
      emailField.value = email;
      offerEmailSuggestion(emailField);
    }
    showFieldMessages({});
    markRules(false);
    showWorking(false);
    if (focus) heading.focus();
  }

  /** A form shown again starts empty, its passwords hidden, as it did the first time. */
  function blank(shown: HTMLFormElement) {
    shown.reset();
    for (const toggle of shown.querySelectorAll('[data-show-password]')) toggle.setAttribute('aria-pressed', 'false');
    for (const field of shown.querySelectorAll<HTMLInputElement>('input[name="password"], input[name="confirm"]'))
      field.type = 'password';
  }

  /** Goes to the page the shopper came from; the button keeps its busy state. */
  function leave() {
    showWorking(true);
    window.location.assign(returnPath());
  }

  /** The form's values as typed (the e-mail trimmed). */
  function values() {
    return {
      email: (input('email')?.value ?? '').trim(),
      password: input('password')?.value ?? '',
      confirm: input('confirm')?.value ?? '',
    };
  }

  /** Sends the shown form; `ask` throws what the API refused. */
  async function send() {
    const typed = values();
    const problems = checkLoginForm(mode, typed);
    banners.clear();
    markRules(Boolean(problems.password));
    if (showFieldMessages(problems)) return;
    showWorking(true);
    try {
      const { accountApi } = await loadLoginModules();
      const { email: address, password } = typed;
      switch (mode) {
        case 'signin':
          await callApi(accountApi.signIn, { body: { email: address, password } });
          return leave();
        case 'signup':
          await callApi(accountApi.signUp, { body: { email: address, password } });
          // Sign-up does not sign in: the same e-mail and password do.
          try {
            await callApi(accountApi.signIn, { body: { email: address, password } });
          } catch (error) {
            // The address already had an account (its owner got an e-mail about this): sign in with its password.
            if (error instanceof ApiRequestError && error.code === 'invalid_credentials')
              return switchTo('signin', SIGN_UP_EXISTING);
            throw error;
          }
          return leave();
        case 'forgot': {
          // The same answer whether or not the address has an account.
          const { message } = await callApi(accountApi.forgotPassword, { body: { email: address } });
          banners.note(message);
          return showWorking(false);
        }
        case 'reset': {
          const { message } = await callApi(accountApi.resetPassword, { body: { token: resetToken, password } });
          // Every session of the account ended, this browser's too.
          void refreshSession();
          return switchTo('signin', message);
        }
        case 'verify':
        case 'claim':
          await callApi(accountApi.verifyEmail, {
            body: mode === 'verify' ? { token: verifyToken, password } : { token: verifyToken, newPassword: password },
          });
          // The address is proven and this browser signed in.
          await refreshSession();
          return leave();
      }
    } catch (error) {
      banners.fail(failureMessage(error));
      showWorking(false);
    }
  }

  /**
   * A reset link is asked about as it opens: a used or expired one says so at once and offers
   * the form that sends a new one, rather than after a new password was chosen twice.
   */
  async function checkResetLink(token: string) {
    try {
      const { accountApi } = await loadLoginModules();
      await callApi(accountApi.checkResetLink, { body: { token } });
    } catch (error) {
      // Only a link known to be dead sends the shopper on; offline or a server error, the form stays.
      const dead =
        error instanceof ApiRequestError &&
        (error.code === 'invalid_token' || error.issues.some((issue) => issue.field === 'token'));
      if (!dead || mode !== 'reset') return;
      switchTo('forgot', '', false);
      banners.fail(RESET_LINK_DEAD);
    }
  }

  /** A verify link: confirmed at once in the browser that signed up, else the password chosen then (or a new one) proves it. */
  async function confirmEmail(token: string) {
    banners.note('Confirming your e-mail address…');
    try {
      const { accountApi } = await loadLoginModules();
      const { message } = await callApi(accountApi.verifyEmail, { body: { token } });
      // Opened in the browser that signed up: confirmed, and signed in afresh.
      await refreshSession();
      banners.note(message);
      showSignedIn();
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === PASSWORD_REQUIRED) {
        // Who signed up must be proven too. A password typed meanwhile on the sign-in form is the one asked for.
        const typed = input('password')?.value ?? '';
        verifyToken = token;
        switchTo('verify');
        const field = input('password');
        if (field) field.value = typed;
        return;
      }
      // A used link opened by a confirmed account (a second tap in the e-mail, most likely): said
      // as it is, the link used and this address confirmed, with the way on instead of a sign-in form.
      if (error instanceof ApiRequestError && error.code === 'invalid_token') {
        const { user } = await loadSession().catch(() => ({ user: null }));
        if (user?.emailVerified) {
          banners.note(`This link was already used or has expired. Your e-mail address ${user.email} is confirmed.`);
          showSignedIn();
          return;
        }
      }
      banners.fail(failureMessage(error));
    }
  }

  /**
   * Signed in by the link itself: no form is left to fill here (a sign-in form under "you are
   * signed in" read as a contradiction), only the way on, to the page that sent them or the account.
   */
  function showSignedIn() {
    heading.textContent = 'E-mail address confirmed';
    intro.hidden = true;
    const next = document.createElement('p');
    next.className = 'login__next';
    const link = document.createElement('a');
    link.className = 'btn btn-primary btn-block';
    link.href = returnPath();
    link.textContent = link.pathname === '/profile' ? 'Go to your account' : 'Continue';
    next.replaceChildren(link);
    root.querySelector('.login__body')?.replaceWith(next);
    link.focus();
  }

  async function google() {
    banners.clear();
    showWorking(true);
    try {
      await startGoogleSignIn(returnPath());
      // The browser is on its way to Google: the button keeps its busy state.
    } catch {
      banners.fail(GOOGLE_FAILED);
      showWorking(false);
    }
  }

  root.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!working) void send();
  });

  root.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button') : null;
    if (!button || button.type === 'submit') return;
    if (button.matches('[data-show-password]')) {
      // One toggle shows every password of the form (a new password and its confirmation together).
      const shown = button.getAttribute('aria-pressed') !== 'true';
      button.setAttribute('aria-pressed', String(shown));
      for (const field of form().querySelectorAll<HTMLInputElement>('input[name="password"], input[name="confirm"]')) {
        field.type = shown ? 'text' : 'password';
      }
      return;
    }
    const to = button.dataset.switch;
    if (isLoginMode(to)) return switchTo(to);
    if (button.matches('[data-google]')) void google();
  });

  root.addEventListener('input', (event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement)) return;
    if (field.name === 'email') email = field.value;
    if (field.name === 'password') markRules();
  });

  $auth.subscribe(showGoogle);
  void loadSession();
  // The page's first form can be sent now.
  email = input('email')?.value ?? '';
  const firstEmail = input('email');
  if (firstEmail) offerEmailSuggestion(firstEmail);
  showWorking(false);
  // The accounts API's contract, as soon as the shopper turns to the form (not with the page).
  const prepare = () => void loadLoginModules().catch(() => undefined);
  root.addEventListener('focusin', prepare, { once: true });
  root.addEventListener('pointerdown', prepare, { once: true });

  // Once: the links from e-mails and Google's failures, read from the address.
  const url = new URL(window.location.href);
  const verify = url.searchParams.get('verify');
  const reset = url.searchParams.get('reset');
  const failure = url.searchParams.get('error');
  // The link's secret should not stay in the address bar, the history or a reload.
  for (const name of ['verify', 'reset', 'error']) url.searchParams.delete(name);
  if (verify !== null || reset !== null || failure !== null) window.history.replaceState(window.history.state, '', url.href);
  if (reset !== null) {
    resetToken = reset;
    switchTo('reset', '', false);
    void checkResetLink(reset);
  } else if (verify !== null) {
    void confirmEmail(verify);
  }
  if (failure !== null) banners.fail(signInErrorMessage(failure));
  // Already signed in (a link from another page, the back button): straight on to `?next=` when
  // the address names one; else a word that they are, above the form (to sign in as someone else).
  if (verify === null && reset === null && failure === null) {
    void loadSession().then(({ user }) => {
      if (!user) return;
      if (new URLSearchParams(window.location.search).has(RETURN_PARAM)) window.location.replace(returnPath());
      else if (!errorBanner.textContent && !noticeBanner.textContent) banners.note(`You are signed in as ${user.email}.`);
    });
  }
  root.dataset.ready = '';
}

const root = document.querySelector<HTMLElement>('[data-login]');
if (root) login(root);
