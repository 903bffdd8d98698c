import { type FieldPath, type FieldValues, get, type UseFormReturn } from 'react-hook-form';
import type { FieldIssue } from '../../lib/api-client.browser.ts';

/** Where the form's fields sit among the API's field names. */
export interface IssuePlacement {
  /** Where the form sits in the request body (`'customer.'` for the checkout's details): issues outside it fit no field. */
  prefix?: string;
  /**
   * The form's field that shows an API field (after `prefix` is taken off): a field the form has
   * no control for goes to the one that shows it (a variant's id to its label); '' for none.
   */
  rename?: (field: string) => string;
}

/**
 * The one way the islands put the API's validation issues (`{field, message}`, from an
 * ApiRequestError; nested paths such as `variants.0.priceNaira` too) on the form's own fields,
 * focusing the first of them. Returns the issues that fit no field of this form, for the
 * caller to show otherwise (above the form, in a banner).
 */
export function showServerIssues<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'getValues' | 'setError'>,
  issues: readonly FieldIssue[],
  { prefix = '', rename = (field) => field }: IssuePlacement = {},
): FieldIssue[] {
  const values = form.getValues();
  const rest: FieldIssue[] = [];
  let focused = false;
  for (const issue of issues) {
    const name = issue.field.startsWith(prefix) ? rename(issue.field.slice(prefix.length)) : '';
    if (!isFieldOf(values, name)) {
      rest.push(issue);
      continue;
    }
    form.setError(name, { type: 'server', message: issue.message }, { shouldFocus: !focused });
    focused = true;
  }
  return rest;
}

/** A field name that is one of the form's fields: a value it holds, or a field under one of its top-level fields. */
function isFieldOf<T extends FieldValues>(values: T, name: string): name is FieldPath<T> {
  const top = name.split('.')[0] ?? '';
  return name !== '' && (get(values, name) !== undefined || Object.hasOwn(values, top));
}
