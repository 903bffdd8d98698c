import type { FieldValues } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { showServerIssues } from './server-errors.browser.ts';

/** A stand-in for useForm()'s return: its values, and the errors set on it with whether each took the focus. */
function fakeForm(values: FieldValues) {
  const set: { name: string; message: string | undefined; focus: boolean | undefined }[] = [];
  return {
    set,
    form: {
      getValues: () => values,
      setError: (name: string, error: { message?: string }, options?: { shouldFocus?: boolean }) =>
        set.push({ name, message: error.message, focus: options?.shouldFocus }),
    } as never,
  };
}

describe('the API’s issues on a form’s fields', () => {
  it('puts each on its field, focuses the first, and answers those that fit no field', () => {
    const { form, set } = fakeForm({ name: '', email: '' });
    const rest = showServerIssues(form, [
      { field: 'email', message: 'Enter an e-mail address' },
      { field: 'name', message: 'Enter your name' },
      { field: 'items.0.quantity', message: 'Too many' },
    ]);
    expect(set).toEqual([
      { name: 'email', message: 'Enter an e-mail address', focus: true },
      { name: 'name', message: 'Enter your name', focus: false },
    ]);
    expect(rest).toEqual([{ field: 'items.0.quantity', message: 'Too many' }]);
  });

  it('reads the fields under a prefix: issues outside it fit no field', () => {
    const { form, set } = fakeForm({ name: '', delivery: 'delivery' });
    const rest = showServerIssues(
      form,
      [
        { field: 'customer.name', message: 'Enter your name' },
        { field: 'delivery', message: 'Choose one' },
      ],
      { prefix: 'customer.' },
    );
    expect(set.map((s) => s.name)).toEqual(['name']);
    expect(rest.map((i) => i.field)).toEqual(['delivery']);
  });

  it('places nested paths, renamed fields and none for a field renamed to nothing', () => {
    const { form, set } = fakeForm({ id: '', variants: [{ label: '', priceNaira: undefined }] });
    const rest = showServerIssues(
      form,
      [
        { field: 'variants.0.priceNaira', message: 'Enter a price' },
        { field: 'variants.0.id', message: 'Taken' },
        { field: 'id', message: 'Fixed' },
      ],
      { rename: (field) => (field === 'id' ? '' : field.replace(/^(variants\.\d+)\.id$/, '$1.label')) },
    );
    expect(set.map((s) => s.name)).toEqual(['variants.0.priceNaira', 'variants.0.label']);
    expect(rest.map((i) => i.field)).toEqual(['id']);
  });
});
