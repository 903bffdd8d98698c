import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import {
  type Control,
  type FieldValues,
  get,
  type Path,
  type RegisterOptions,
  type UseFormReturn,
  useController,
} from 'react-hook-form';
import './Field.css';

/**
 * The one form field kit, for react-hook-form forms validated with the shared zod schemas
 * (`useForm({ resolver: zodResolver(schema) })`): text, textarea, select, checkbox and radio
 * group. Every field is wired the same way:
 * - its label, then its hint (when it has one) right after the label, so it is read before the
 *   control is used; then the control, then its message;
 * - the hint is `${id}-hint` and the message `${id}-error`, and the control's aria-describedby
 *   names them in that order; aria-invalid marks the control while it has a message.
 * react-hook-form focuses the first invalid field on submit (shouldFocusError), in the order
 * the fields are rendered.
 */

/** What a field needs of its form: a field takes `useForm()`'s return as it is. */
type FormParts<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

/** What every registered field takes. */
interface FieldProps<T extends FieldValues> {
  form: FormParts<T>;
  name: Path<T>;
  label: string;
  /** The control's id; its hint is `${id}-hint`, its message `${id}-error`. */
  id: string;
  /** Help shown under the label and tied to the control. */
  hint?: string;
  /** register()'s options, e.g. `{ valueAsNumber: true }`. */
  options?: RegisterOptions<T, Path<T>>;
}

/** What `register()` and the kit put on the control, so a caller does not. */
type Wired = 'form' | 'id' | 'name' | 'onChange' | 'onBlur' | 'ref' | 'children';

/** One of a select's or a radio group's choices: a string is its own label. */
export interface Choice<V = string> {
  value: V;
  label: string;
  /** Said after the label, quieter (a radio button's). */
  hint?: string;
}

/** A one-line input (text, e-mail, number, tel…). */
export function TextField<T extends FieldValues>({
  form,
  name,
  label,
  id,
  hint,
  options,
  type = 'text',
  ...input
}: FieldProps<T> & Omit<InputHTMLAttributes<HTMLInputElement>, Wired>) {
  const message = fieldMessage(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <input className="input" type={type} {...input} {...registered(form, name, id, hint, message, options)} />
    </FieldFrame>
  );
}

/** Text over several lines. */
export function TextareaField<T extends FieldValues>({
  form,
  name,
  label,
  id,
  hint,
  options,
  ...textarea
}: FieldProps<T> & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Wired>) {
  const message = fieldMessage(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <textarea className="input" {...textarea} {...registered(form, name, id, hint, message, options)} />
    </FieldFrame>
  );
}

/** A choice from a list, with an empty first option (`placeholder`) shown until one is picked. */
export function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  id,
  hint,
  options,
  placeholder,
  choices,
  ...select
}: FieldProps<T> &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, Wired> & {
    placeholder: string;
    choices: readonly (string | Choice)[];
  }) {
  const message = fieldMessage(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <select className="input" {...select} {...registered(form, name, id, hint, message, options)}>
        <option value="">{placeholder}</option>
        {choices.map((choice) => {
          const { value, label } = typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </FieldFrame>
  );
}

/** A yes/no box: the box, then its label, hint and message beside and under it. */
export function CheckboxField<T extends FieldValues>({
  form,
  name,
  label,
  id,
  hint,
  options,
  ...input
}: FieldProps<T> & Omit<InputHTMLAttributes<HTMLInputElement>, Wired | 'type'>) {
  const message = fieldMessage(form, name);
  return (
    <div className="check-field">
      <input type="checkbox" {...input} {...registered(form, name, id, hint, message, options)} />
      <label htmlFor={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <Message id={id} message={message} />
    </div>
  );
}

/**
 * A question answered with one of a few choices: a fieldset (its legend is the label) of
 * radio buttons, its hint and message tied to the fieldset. The value is whatever the choice
 * says (true/false for yes/no), so the form holds what the schema expects; the first radio
 * has the id and takes the focus on an error.
 */
export function RadioGroupField<T extends FieldValues, V extends string | boolean, Out extends FieldValues = T>({
  form,
  name,
  id,
  label,
  hint,
  choices,
  className = '',
}: {
  form: { control: Control<T, unknown, Out> };
  name: Path<T>;
  id: string;
  label: string;
  hint?: string;
  choices: readonly Choice<V>[];
  className?: string;
}) {
  const { field, fieldState } = useController<T, Path<T>, Out>({ control: form.control, name });
  const message = shownMessage(fieldState.error);
  return (
    <fieldset className={`choice-group ${className}`} {...described(id, hint, message)}>
      <legend>{label}</legend>
      <Hint id={id} hint={hint} />
      <div className="choice-group__options">
        {choices.map((choice, index) => (
          <label key={String(choice.value)} className="choice-group__option">
            <input
              type="radio"
              id={index === 0 ? id : undefined}
              name={field.name}
              value={String(choice.value)}
              checked={field.value === choice.value}
              onChange={() => field.onChange(choice.value)}
              onBlur={field.onBlur}
              ref={index === 0 ? field.ref : undefined}
              required
            />
            <span>
              {choice.label}
              {choice.hint && <span className="muted"> · {choice.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      <Message id={id} message={message} />
    </fieldset>
  );
}

/**
 * The label, hint, control and message of a field, in the kit's one order: for a field the kit
 * has no control for (a password with its show/hide toggle), with `described` on its control.
 */
export function FieldFrame({
  id,
  label,
  hint,
  message,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  message?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <Hint id={id} hint={hint} />
      {children}
      <Message id={id} message={message} />
    </div>
  );
}

function Hint({ id, hint }: { id: string; hint?: string }) {
  return hint ? (
    <p id={`${id}-hint`} className="field-hint muted">
      {hint}
    </p>
  ) : null;
}

function Message({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={`${id}-error`} className="field-error">
      {message}
    </p>
  ) : null;
}

/**
 * A control's aria-invalid (while there is a message) and aria-describedby: the hint, then what
 * else describes it (`also`: the ids of a checklist), then the message.
 */
export function described(id: string, hint: string | undefined, message: string | undefined, also: readonly string[] = []) {
  const ids = [hint ? `${id}-hint` : '', ...also, message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': message ? true : undefined, 'aria-describedby': ids || undefined } as const;
}

/** What goes on a registered control: its id, register()'s props and the aria wiring. */
function registered<T extends FieldValues>(
  form: FormParts<T>,
  name: Path<T>,
  id: string,
  hint: string | undefined,
  message: string | undefined,
  options: RegisterOptions<T, Path<T>> | undefined,
) {
  return { id, ...form.register(name, options), ...described(id, hint, message) };
}

/** The field's message: errors are keyed by path (`customer.email` is nested), an array's own one sits at `root`. */
export function fieldMessage<T extends FieldValues>(form: FormParts<T>, name: Path<T>): string | undefined {
  return shownMessage(get(form.formState.errors, name));
}

function shownMessage(error: { message?: unknown; root?: { message?: unknown } } | undefined): string | undefined {
  const message = error?.message ?? error?.root?.message;
  return typeof message === 'string' && message ? message : undefined;
}
