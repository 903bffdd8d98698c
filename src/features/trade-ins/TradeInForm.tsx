import { zodResolver } from '@hookform/resolvers/zod';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { get, type Resolver, useForm } from 'react-hook-form';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { accountApi } from '../account/account-api.ts';
import { loadSession } from '../account/session.browser.ts';
import { CATEGORIES } from '../catalogue/categories.ts';
import type { Product } from '../catalogue/product.ts';
import { useHydrated } from '../catalogue/use-hydrated.browser.ts';
import { RadioGroupField, SelectField, TextareaField, TextField } from '../forms/Field.tsx';
import { formatNigerianPhone, NIGERIAN_STATES } from '../orders/nigeria.ts';
import { isOffline } from '../pwa/connection.browser.ts';
import { submitTradeIn } from './api-client.browser.ts';
import type { PreparedPhoto } from './photos.browser.ts';
import { PhotoPicker } from './PhotoPicker.tsx';
import { ProductPicker } from './ProductPicker.tsx';
import {
  BATTERY_HEALTH,
  BATTERY_HEALTH_LABELS,
  CONDITION_QUESTIONS,
  type ConditionQuestion,
  TRADE_IN_BRANDS,
  type TradeInRequest,
  type TradeInView,
  tradeInRequestSchema,
} from './trade-in.ts';
import { EMPTY_TRADE_IN_FORM, TRADE_IN_FIELD_ORDER, type TradeInFormValues, tradeInFieldOf } from './trade-in-form.ts';
import { rememberTradeIn } from './trade-in-store.browser.ts';
import './trade-ins.css';

const CATEGORY_OPTIONS = CATEGORIES.map((c) => ({ value: c.id, label: c.label }));
const BRAND_OPTIONS = TRADE_IN_BRANDS.map((b) => ({ value: b, label: b }));
const YES_NO = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
] as const;
const BATTERY_OPTIONS = BATTERY_HEALTH.map((value) => ({ value, label: BATTERY_HEALTH_LABELS[value] }));
const WANT_OPTIONS = [
  { value: 'cash', label: 'Cash', hint: 'we pay you for it' },
  { value: 'swap', label: 'A swap', hint: 'for a product from our store, paying the difference' },
] as const;
const QUESTIONS = Object.entries(CONDITION_QUESTIONS) as [ConditionQuestion, string][];

const SEND_FAILED = 'We could not send your request just now. Please try again.';

/** A signed-in shopper's name, e-mail, phone and state from their profile; null for a guest. */
async function savedContact(): Promise<TradeInFormValues['contact'] | null> {
  const { user } = await loadSession();
  if (!user) return null;
  const { profile } = await callApi(accountApi.profile);
  return {
    name: profile.name ?? '',
    email: profile.email,
    phone: profile.phone ? formatNigerianPhone(profile.phone) : '',
    state: profile.state ?? '',
  };
}

/**
 * /sell-or-swap: the trade-in request form. Checked by `tradeInRequestSchema` (the schema the
 * Worker validates with), sent as multipart with the photos; the API's field issues come
 * back onto the fields. On success, the reference and a link to the status page.
 */
export default function TradeInForm() {
  const hydrated = useHydrated();
  const [product, setProduct] = useState<Product | null>(null);
  const productRef = useRef<Product | null>(null);
  productRef.current = product;
  const [photos, setPhotos] = useState<readonly PreparedPhoto[]>([]);
  const [photoProblem, setPhotoProblem] = useState('');
  const photoInput = useRef<HTMLInputElement>(null);
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<TradeInView | null>(null);
  const doneRef = useRef<HTMLElement>(null);

  const resolver = useMemo<Resolver<TradeInFormValues, unknown, TradeInRequest>>(() => {
    // The form holds unanswered questions as null and unchosen options as ''; the schema
    // says what is missing. zodResolver types the form as the schema's input, hence the widening.
    const schema = zodResolver(tradeInRequestSchema) as unknown as Resolver<TradeInFormValues, unknown, TradeInRequest>;
    return async (values, context, options) => {
      const result = await schema(values, context, options);
      // A product with variants needs one chosen (the schema cannot know the product's variants).
      const chosen = productRef.current;
      if (values.want.kind === 'swap' && chosen && chosen.variants.length > 1 && !values.want.variant) {
        const message = `Please choose the ${(chosen.variantLabel || 'option').toLowerCase()} you want`;
        return {
          values: {},
          errors: { ...result.errors, want: { ...result.errors.want, variant: { type: 'required', message } } },
        };
      }
      return result;
    };
  }, []);

  const form = useForm<TradeInFormValues, unknown, TradeInRequest>({
    resolver,
    defaultValues: EMPTY_TRADE_IN_FORM,
    // The fields are focused in the form's order below, not react-hook-form's registration order
    // (the swap's product picker registers its fields last, when it appears).
    shouldFocusError: false,
  });
  const kind = form.watch('want.kind');
  const busy = form.formState.isSubmitting;

  // Signed in: the contact details start from the profile; what the shopper already typed stays.
  useEffect(() => {
    savedContact().then(
      (contact) => {
        if (!contact) return;
        for (const key of ['name', 'email', 'phone', 'state'] as const) {
          const name = `contact.${key}` as const;
          if (contact[key] && !form.getValues(name) && !form.getFieldState(name).isDirty) form.setValue(name, contact[key]);
        }
      },
      () => undefined,
    );
  }, [form]);

  useEffect(() => {
    if (sent) doneRef.current?.focus();
  }, [sent]);

  /** The API's field issues onto the fields (the first, in the form's order, focused); answers the rest. */
  const showIssues = (issues: readonly { field: string; message: string }[]) => {
    const rest: string[] = [];
    const placed = issues
      .map((issue) => ({ ...issue, at: tradeInFieldOf(issue.field) }))
      .filter((issue) => {
        if (issue.at) return true;
        rest.push(issue.message);
        return false;
      })
      .sort((a, b) => TRADE_IN_FIELD_ORDER.indexOf(a.at!) - TRADE_IN_FIELD_ORDER.indexOf(b.at!));
    placed.forEach(({ at, message }, index) => {
      if (at === 'photos') {
        setPhotoProblem(message);
        if (index === 0) photoInput.current?.focus();
      } else if (at) {
        form.setError(at, { type: 'server', message }, { shouldFocus: index === 0 });
      }
    });
    return rest;
  };

  const send = form.handleSubmit(
    async (request) => {
      setMessage('');
      setPhotoProblem('');
      if (isOffline()) {
        setMessage('You are offline. Sending your request needs a connection: your answers stay here until you are back online.');
        return;
      }
      try {
        const tradeIn = await submitTradeIn(
          request,
          photos.map((p) => ({ blob: p.blob, name: p.name })),
        );
        rememberTradeIn(tradeIn.reference, tradeIn.contact.email);
        setSent(tradeIn);
      } catch (error) {
        if (!(error instanceof ApiRequestError) || error.code === 'network' || error.status >= 500) {
          setMessage(SEND_FAILED);
          return;
        }
        const rest = error.issues.length ? showIssues(error.issues) : [error.message];
        setMessage(rest.length ? rest.join(' ') : 'Please check the fields marked below.');
      }
    },
    (errors) => {
      setMessage('Please check the fields marked below.');
      const first = TRADE_IN_FIELD_ORDER.find((field) => field !== 'photos' && get(errors, field));
      if (first && first !== 'photos') form.setFocus(first);
    },
  );

  const startAgain = () => {
    form.reset(EMPTY_TRADE_IN_FORM);
    setProduct(null);
    setPhotos([]);
    setMessage('');
    setSent(null);
  };

  if (sent) {
    const status = `/sell-or-swap/status?ref=${encodeURIComponent(sent.reference)}`;
    return (
      <section className="trade-in-done card" aria-labelledby="trade-in-done-title" tabIndex={-1} ref={doneRef}>
        <CheckCircle2 size={40} aria-hidden="true" className="trade-in-done__icon" />
        <h2 id="trade-in-done-title">Request received</h2>
        <p>
          Your reference is <strong data-testid="trade-in-reference">{sent.reference}</strong>. Keep it: you need it with your
          e-mail to check on your request.
        </p>
        <p>
          We e-mailed you a copy at <strong>{sent.contact.email}</strong>. We will look at your device’s details and contact you
          with an offer.
        </p>
        <p className="trade-in-done__actions">
          <a className="btn btn-primary" href={status}>
            Check your request’s status
          </a>
          <button type="button" className="btn btn-outline" onClick={startAgain}>
            Send another request
          </button>
        </p>
      </section>
    );
  }

  return (
    <form id="trade-in-form" className="trade-in-form card" onSubmit={send} noValidate aria-labelledby="trade-in-form-title">
      <h2 id="trade-in-form-title" className="visually-hidden">
        Your trade-in request
      </h2>
      {/* Disabled until the island is live: typing into the pre-rendered form would be lost when it hydrates. */}
      <fieldset className="trade-in-form__all" disabled={!hydrated}>
        <section className="trade-in-form__section" aria-labelledby="trade-in-device-title">
          <h3 id="trade-in-device-title">Your device</h3>
          <div className="trade-in-form__pair">
            <SelectField
              form={form}
              name="device.category"
              id="trade-in-category"
              label="Type of device"
              placeholder="Choose the type"
              choices={CATEGORY_OPTIONS}
              required
            />
            <SelectField
              form={form}
              name="device.brand"
              id="trade-in-brand"
              label="Brand"
              placeholder="Choose the brand"
              choices={BRAND_OPTIONS}
              required
            />
          </div>
          <div className="trade-in-form__pair">
            <TextField
              form={form}
              name="device.model"
              id="trade-in-model"
              label="Model"
              placeholder="e.g. iPhone 13 Pro, Galaxy S22"
              autoComplete="off"
              maxLength={80}
              required
            />
            <TextField
              form={form}
              name="device.storage"
              id="trade-in-storage"
              label="Storage (if it has any)"
              placeholder="e.g. 128GB"
              autoComplete="off"
              maxLength={20}
            />
          </div>
        </section>

        <section className="trade-in-form__section" aria-labelledby="trade-in-condition-title">
          <h3 id="trade-in-condition-title">Its condition</h3>
          {QUESTIONS.slice(0, 3).map(([question, text]) => (
            <RadioGroupField
              key={question}
              form={form}
              name={`condition.${question}`}
              id={`trade-in-${question}`}
              label={text}
              choices={YES_NO}
              className="choice-group--inline"
            />
          ))}
          <RadioGroupField
            form={form}
            name="condition.batteryHealth"
            id="trade-in-battery"
            label="Battery health (Settings › Battery on most phones)"
            choices={BATTERY_OPTIONS}
          />
          {QUESTIONS.slice(3).map(([question, text]) => (
            <RadioGroupField
              key={question}
              form={form}
              name={`condition.${question}`}
              id={`trade-in-${question}`}
              label={text}
              choices={YES_NO}
              className="choice-group--inline"
            />
          ))}
          <TextareaField
            form={form}
            name="condition.notes"
            id="trade-in-notes"
            label="Anything else we should know? (optional)"
            hint="A repaired screen, a missing charger, a faulty button…"
            rows={3}
            maxLength={500}
          />
        </section>

        <section className="trade-in-form__section" aria-labelledby="trade-in-photos-title">
          <h3 id="trade-in-photos-title">Photos (optional)</h3>
          <PhotoPicker
            photos={photos}
            onChange={(change) => {
              setPhotoProblem('');
              setPhotos(change);
            }}
            serverProblem={photoProblem}
            inputRef={photoInput}
            disabled={!hydrated}
          />
        </section>

        <section className="trade-in-form__section" aria-labelledby="trade-in-want-title">
          <h3 id="trade-in-want-title">What you want for it</h3>
          <RadioGroupField form={form} name="want.kind" id="trade-in-want" label="Cash or a swap?" choices={WANT_OPTIONS} />
          {kind === 'swap' && <ProductPicker form={form} chosen={product} onChoose={setProduct} />}
        </section>

        <section className="trade-in-form__section" aria-labelledby="trade-in-contact-title">
          <h3 id="trade-in-contact-title">How we reach you</h3>
          <div className="trade-in-form__pair">
            <TextField form={form} name="contact.name" id="trade-in-name" label="Full name" autoComplete="name" required />
            <TextField
              form={form}
              name="contact.phone"
              id="trade-in-phone"
              label="Phone number"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="0803 123 4567"
              required
            />
          </div>
          <div className="trade-in-form__pair">
            <TextField
              form={form}
              name="contact.email"
              id="trade-in-email"
              label="Email"
              type="email"
              inputMode="email"
              autoComplete="email"
              required
            />
            <SelectField
              form={form}
              name="contact.state"
              id="trade-in-state"
              label="State"
              autoComplete="address-level1"
              placeholder="Choose your state"
              choices={NIGERIAN_STATES}
              required
            />
          </div>
        </section>

        <p className="form-message" data-kind="error" role="alert">
          {message}
        </p>
        <button type="submit" className="btn btn-primary trade-in-form__submit" disabled={busy}>
          {busy ? 'Sending your request…' : 'Send my request'}
        </button>
      </fieldset>
    </form>
  );
}
