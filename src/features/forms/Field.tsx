import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { get, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import './Field.css';

/**
 * Form fields for react-hook-form forms validated with the shared zod schemas
 * (`useForm({ resolver: zodResolver(schema) })`): a label, the control, and the
 * field's message tied to it with aria-invalid / aria-describedby. react-hook-form
 * focuses the first invalid field on submit (shouldFocusError), in the order the
 * fields are rendered.
 */

/** What a field needs of its form: a field takes `useForm()`'s return as it is. */
type FormParts<T extends FieldValues> = Pick<UseFormReturn<T>, 'register' | 'formState'>;

interface FieldProps<T extends FieldValues> {
  form: FormParts<T>;
  name: Path<T>;
  label: string;
  /** The control's id; its message is `${id}-error`. */
  id: string;
}

/** What `register()` puts on the control. */
type Registered = 'name' | 'onChange' | 'onBlur' | 'ref';

type TextFieldProps<T extends FieldValues> = FieldProps<T> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'form' | 'id' | Registered>;

export function TextField<T extends FieldValues>({ form, name, label, id, type = 'text', ...input }: TextFieldProps<T>) {
  const { control, message } = fieldControl(form, name, id);
  return (
    <FieldFrame id={id} label={label} message={message}>
      <input className="input" type={type} {...input} {...control} />
    </FieldFrame>
  );
}

type SelectFieldProps<T extends FieldValues> = FieldProps<T> &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'form' | 'id' | 'children' | Registered> & {
    /** The empty first option, shown until the shopper picks one. */
    placeholder: string;
    options: readonly string[];
  };

export function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  id,
  placeholder,
  options,
  ...select
}: SelectFieldProps<T>) {
  const { control, message } = fieldControl(form, name, id);
  return (
    <FieldFrame id={id} label={label} message={message}>
      <select className="input" {...select} {...control}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

function FieldFrame({ id, label, message, children }: { id: string; label: string; message?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {message && (
        <p id={`${id}-error`} className="field-error">
          {message}
        </p>
      )}
    </div>
  );
}

function fieldControl<T extends FieldValues>(form: FormParts<T>, name: Path<T>, id: string) {
  // Errors are keyed by path (`customer.email` would be nested), so read them with react-hook-form's `get`.
  const error: { message?: unknown } | undefined = get(form.formState.errors, name);
  const shown = typeof error?.message === 'string' && error.message ? error.message : undefined;
  return {
    message: shown,
    control: {
      id,
      ...form.register(name),
      'aria-invalid': shown ? true : undefined,
      'aria-describedby': shown ? `${id}-error` : undefined,
    },
  };
}
