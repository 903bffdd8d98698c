import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';

/** An API validation issue, as an ApiRequestError carries it. */
interface FieldIssue {
  field: string;
  message: string;
}

/**
 * Puts the API's validation issues (`{field, message}`, from an ApiRequestError) on
 * the form's own fields and focuses the first of them. `prefix` is where the form
 * sits in the request body (`'customer.'` for the checkout details). Returns the
 * issues that belong to no field of this form, for the caller to show otherwise.
 */
export function showServerIssues<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  issues: readonly FieldIssue[],
  prefix = '',
): FieldIssue[] {
  const values = form.getValues();
  const rest: FieldIssue[] = [];
  let focused = false;
  for (const issue of issues) {
    const name = issue.field.startsWith(prefix) ? issue.field.slice(prefix.length) : '';
    if (!isFieldOf(values, name)) {
      rest.push(issue);
      continue;
    }
    form.setError(name, { type: 'server', message: issue.message }, { shouldFocus: !focused });
    focused = true;
  }
  return rest;
}

/** A field name the API sent that is one of this (flat) form's fields. */
function isFieldOf<T extends FieldValues>(values: T, name: string): name is FieldPath<T> {
  return name !== '' && Object.hasOwn(values, name);
}
