import type { ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { type Control, type FieldValues, get, type Path, type UseFormReturn, useController } from 'react-hook-form';
import '../forms/Field.css';

/**
 * The trade-in form's own controls beside src/features/forms' TextField/SelectField, in the
 * same frame (label, control, message tied with aria-invalid / aria-describedby): a select
 * whose options have values apart from their labels, a textarea, and a group of radio buttons
 * whose values are not strings (yes/no answers are booleans in the schema).
 */

type FormParts<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

function errorOf<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'formState'>, name: Path<T>): string | undefined {
  const error: { message?: unknown } | undefined = get(form.formState.errors, name);
  return typeof error?.message === 'string' && error.message ? error.message : undefined;
}

function Frame({
  id,
  label,
  message,
  hint,
  children,
}: {
  id: string;
  label: string;
  message?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p id={`${id}-hint`} className="field-hint muted">
          {hint}
        </p>
      )}
      {children}
      {message && (
        <p id={`${id}-error`} className="field-error">
          {message}
        </p>
      )}
    </div>
  );
}

function described(id: string, message: string | undefined, hint: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

type Registered = 'name' | 'onChange' | 'onBlur' | 'ref' | 'form' | 'id' | 'children';

export function OptionsField<T extends FieldValues>({
  form,
  name,
  id,
  label,
  placeholder,
  options,
  hint,
  ...select
}: {
  form: FormParts<T>;
  name: Path<T>;
  id: string;
  label: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
  hint?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, Registered>) {
  const message = errorOf(form, name);
  return (
    <Frame id={id} label={label} message={message} hint={hint}>
      <select
        className="input"
        id={id}
        {...select}
        {...form.register(name)}
        aria-invalid={message ? true : undefined}
        aria-describedby={described(id, message, hint)}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

export function TextAreaField<T extends FieldValues>({
  form,
  name,
  id,
  label,
  hint,
  ...textarea
}: {
  form: FormParts<T>;
  name: Path<T>;
  id: string;
  label: string;
  hint?: string;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Registered>) {
  const message = errorOf(form, name);
  return (
    <Frame id={id} label={label} message={message} hint={hint}>
      <textarea
        className="input"
        id={id}
        {...textarea}
        {...form.register(name)}
        aria-invalid={message ? true : undefined}
        aria-describedby={described(id, message, hint)}
      />
    </Frame>
  );
}

/**
 * A question answered with one of a few choices: a fieldset (its legend names the group)
 * of radio buttons. The value is whatever the option says (true/false for yes/no), so the
 * form holds what the schema expects. react-hook-form focuses the first radio on an error.
 */
export function ChoiceGroup<T extends FieldValues, V extends string | boolean, Out extends FieldValues = T>({
  control,
  name,
  id,
  legend,
  options,
  className = '',
}: {
  control: Control<T, unknown, Out>;
  name: Path<T>;
  id: string;
  legend: string;
  options: readonly { value: V; label: string; hint?: string }[];
  className?: string;
}) {
  const { field, fieldState } = useController<T, Path<T>, Out>({ control, name });
  const message = fieldState.error?.message;
  return (
    <fieldset
      className={`choice-group ${className}`}
      aria-invalid={message ? true : undefined}
      aria-describedby={message ? `${id}-error` : undefined}
    >
      <legend>{legend}</legend>
      <div className="choice-group__options">
        {options.map((option, index) => (
          <label key={String(option.value)} className="choice-group__option">
            <input
              type="radio"
              id={index === 0 ? id : undefined}
              name={field.name}
              value={String(option.value)}
              checked={field.value === option.value}
              onChange={() => field.onChange(option.value)}
              onBlur={field.onBlur}
              ref={index === 0 ? field.ref : undefined}
              required
            />
            <span>
              {option.label}
              {option.hint && <span className="muted"> · {option.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      {message && (
        <p id={`${id}-error`} className="field-error">
          {message}
        </p>
      )}
    </fieldset>
  );
}
