import { type FieldPath, type FieldValues, get, type UseFormReturn } from 'react-hook-form';
import type { FieldIssue } from '../../lib/api-client.browser.ts';

/**
 * Puts the API's field issues (`{field, message}`; nested paths such as `variants.0.priceNaira`)
 * on the form's fields and focuses the first. `rename` maps a field the form has no control for
 * to the one that shows it (a variant's id is made from its label). Answers the issues that
 * fit no field, for the form to show as a whole.
 */
export function showIssuesAtFields<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  issues: readonly FieldIssue[],
  rename: (field: string) => string = (field) => field,
): FieldIssue[] {
  const values = form.getValues();
  const rest: FieldIssue[] = [];
  let focused = false;
  for (const issue of issues) {
    const name = rename(issue.field);
    const top = name.split('.')[0] ?? '';
    const known = name !== '' && (get(values, name) !== undefined || Object.hasOwn(values, top));
    if (!known) {
      rest.push(issue);
      continue;
    }
    form.setError(name as FieldPath<T>, { type: 'server', message: issue.message }, { shouldFocus: !focused });
    focused = true;
  }
  return rest;
}
