import type { FormEventHandler } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { TextField } from './Field.tsx';

/** A lookup's values: the reference (an order number, a trade-in reference) and the e-mail it was made with. */
export type LookupValues<K extends string> = Record<K | 'email', string>;

interface LookupFormProps<K extends string> {
  form: UseFormReturn<LookupValues<K>>;
  /** The reference's field name and how it is shown. */
  reference: { name: K; id: string; label: string; placeholder: string };
  email: { id: string; label: string };
  /** The page's CSS block: `<block>__form`, `<block>__recent`. */
  block: string;
  button: { idle: string; busy: string };
  message: string;
  /** Those this browser made, offered as shortcuts that fill the form and look up at once. */
  recent: { reference: string; email: string }[];
  recentLabel: string;
  onSubmit: FormEventHandler<HTMLFormElement> & (() => Promise<void>);
  /** Starts loading what the lookup needs, once the shopper is on the form. */
  onFocus: () => void;
}

/**
 * A guest's lookup by reference and e-mail (/track, /sell-or-swap/status): plain HTML first,
 * so typing works before hydration; the error message in an alert; this browser's own as shortcuts.
 */
export function LookupForm<K extends string>({
  form,
  reference,
  email,
  block,
  button,
  message,
  recent,
  recentLabel,
  onSubmit,
  onFocus,
}: LookupFormProps<K>) {
  const busy = form.formState.isSubmitting;
  const set = (name: K | 'email', value: string) =>
    form.setValue(name as Path<LookupValues<K>>, value as PathValue<LookupValues<K>, Path<LookupValues<K>>>);
  return (
    <form id={`${block}-form`} className={`${block}__form card`} onSubmit={onSubmit} onFocus={onFocus} noValidate>
      <TextField
        form={form as unknown as UseFormReturn<FieldValues>}
        name={reference.name}
        id={reference.id}
        label={reference.label}
        placeholder={reference.placeholder}
        autoComplete="off"
        required
      />
      <TextField
        form={form as unknown as UseFormReturn<FieldValues>}
        name="email"
        id={email.id}
        label={email.label}
        type="email"
        autoComplete="email"
        inputMode="email"
        required
      />
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? button.busy : button.idle}
      </button>
      <p className="form-message" data-kind="error" role="alert">
        {message}
      </p>
      {recent.length > 0 && (
        <div className={`${block}__recent`}>
          <p className="muted">{recentLabel}</p>
          <ul>
            {recent.map((r) => (
              <li key={r.reference}>
                <button
                  type="button"
                  className="btn btn-outline"
                  onClick={() => {
                    set(reference.name, r.reference);
                    set('email', r.email);
                    void onSubmit();
                  }}
                >
                  {r.reference}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </form>
  );
}
