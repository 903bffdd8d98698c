import { Check, Circle, Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';
import { type FieldValues, type Path, type UseFormReturn, useWatch } from 'react-hook-form';
import { described, FieldFrame, fieldMessage } from '../forms/Field.tsx';
import './PasswordField.css';

/** A rule of the password policy, as the checklist under a new password shows it. */
export interface PasswordRule {
  id: string;
  label: string;
  met: (password: string) => boolean;
}

interface PasswordFieldProps<T extends FieldValues> {
  form: Pick<UseFormReturn<T>, 'register' | 'formState'>;
  name: Path<T>;
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  /** Help under the label (the policy, said in a sentence). */
  hint?: string;
  /** Whether the password shows as text (the toggle below, shared by a form's password fields). */
  shown: boolean;
  /** Renders the show/hide toggle in this field. */
  onToggle?: () => void;
  /** The toggle's name ("Show password"). */
  toggleLabel?: string;
  /** The policy's checklist, marked against `value`. */
  rules?: readonly PasswordRule[];
  value?: string;
  /** The server refused the password: the checklist is highlighted. */
  rulesAlert?: boolean;
}

/**
 * A password field for react-hook-form, in the form kit's frame (src/features/forms/Field.tsx:
 * label, hint, control, message): the input with an optional show/hide toggle (a button with
 * aria-pressed, named "Show password") and, for a new password, the policy as a checklist that
 * the input's description points to, each rule marked met as the user types.
 */
export function PasswordField<T extends FieldValues>({
  form,
  name,
  id,
  label,
  autoComplete,
  hint,
  shown,
  onToggle,
  toggleLabel = 'Show password',
  rules,
  value = '',
  rulesAlert = false,
}: PasswordFieldProps<T>) {
  const message = fieldMessage(form, name);
  return (
    <FieldFrame id={id} label={label} hint={hint} message={message}>
      <div className="password-input" data-toggle={onToggle ? '' : undefined}>
        <input
          className="input"
          id={id}
          type={shown ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoCapitalize="none"
          spellCheck={false}
          required
          {...described(id, hint, message, rules ? [`${id}-rules`] : [])}
          {...form.register(name)}
        />
        {onToggle && (
          <button type="button" className="password-toggle" aria-pressed={shown} aria-label={toggleLabel} onClick={onToggle}>
            {shown ? <EyeOff size={20} aria-hidden="true" /> : <Eye size={20} aria-hidden="true" />}
          </button>
        )}
      </div>
      {rules && (
        <ul
          id={`${id}-rules`}
          className="password-rules"
          data-alert={rulesAlert ? '' : undefined}
          aria-label="Password requirements"
        >
          {rules.map((rule) => {
            const met = rule.met(value);
            return (
              <li key={rule.id} data-met={met ? '' : undefined}>
                {met ? <Check size={16} aria-hidden="true" /> : <Circle size={16} aria-hidden="true" />}
                {rule.label}
                <span className="visually-hidden">{met ? ' (met)' : ' (not met yet)'}</span>
              </li>
            );
          })}
        </ul>
      )}
    </FieldFrame>
  );
}

interface NewPasswordFieldsProps<T extends NewPasswordForm> {
  form: UseFormReturn<T>;
  /** Prefix of the two inputs' ids: `${idPrefix}-password`, `${idPrefix}-confirm`. */
  idPrefix: string;
  label: string;
  confirmLabel: string;
  rules: readonly PasswordRule[];
  rulesAlert: boolean;
}

interface NewPasswordForm extends FieldValues {
  password: string;
  confirm: string;
}

/** A new password and its confirmation (sign-up, reset): one show/hide toggle for both, the policy under the first. */
export function NewPasswordFields<T extends NewPasswordForm>({
  form,
  idPrefix,
  label,
  confirmLabel,
  rules,
  rulesAlert,
}: NewPasswordFieldsProps<T>) {
  const [shown, setShown] = useState(false);
  const password: string = useWatch({ control: form.control, name: 'password' as Path<T> });
  return (
    <>
      <PasswordField
        form={form}
        name={'password' as Path<T>}
        id={`${idPrefix}-password`}
        label={label}
        autoComplete="new-password"
        shown={shown}
        onToggle={() => setShown(!shown)}
        rules={rules}
        value={password}
        rulesAlert={rulesAlert}
      />
      <PasswordField
        form={form}
        name={'confirm' as Path<T>}
        id={`${idPrefix}-confirm`}
        label={confirmLabel}
        autoComplete="new-password"
        shown={shown}
      />
    </>
  );
}
