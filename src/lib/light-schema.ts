/**
 * Small answer checks for the plain scripts on every page (the header's session and cart, the
 * newsletter form, the install offer): zod's core is one module of ~17 KB gzipped that any zod
 * schema in the browser pulls in whole, more than the rest of a plain page's scripts together
 * (docs/decisions/004). These checks cover what those scripts read (objects, strings,
 * numbers, booleans, arrays, tuples, nullable and optional values, defaults) and nothing else.
 *
 * Each check is a Standard Schema (https://standardschema.dev), like every zod schema, so an API
 * contract takes either (src/lib/api-contract.ts) and the browser's client validates both the
 * same way; `parse` and `safeParse` read as zod's do, for the tests. Pages with a form island
 * keep zod for their forms.
 */

/** The Standard Schema v1 interface (the spec's own types, as it asks implementers to copy them). */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly { readonly message: string; readonly path?: readonly (PropertyKey | { key: PropertyKey })[] }[] };
export type InferInput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['input'];
export type InferOutput<S extends StandardSchemaV1> = NonNullable<S['~standard']['types']>['output'];

type Issue = { message: string; path: PropertyKey[] };
/** A value read, or the issues that stopped it. */
type Read<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export interface Check<T> extends StandardSchemaV1<T, T> {
  /** Reads a value; internal to the combinators. */
  readonly read: (value: unknown, path: PropertyKey[]) => Read<T>;
  /** Marks an object field that may be absent. */
  readonly optionalField?: true;
  parse(value: unknown): T;
  safeParse(
    value: unknown,
  ): { success: true; data: T; error?: undefined } | { success: false; data?: undefined; error: { issues: Issue[] } };
}
export type Infer<C extends Check<unknown>> = C extends Check<infer T> ? T : never;

const fail = (message: string, path: PropertyKey[]): Read<never> => ({ ok: false, issues: [{ message, path }] });

function check<T>(read: (value: unknown, path: PropertyKey[]) => Read<T>, extra: { optionalField?: true } = {}): Check<T> {
  return {
    ...extra,
    read,
    '~standard': {
      version: 1,
      vendor: 'gts-light',
      validate: (value) => {
        const result = read(value, []);
        return result.ok ? { value: result.value } : { issues: result.issues };
      },
    },
    parse(value) {
      const result = read(value, []);
      if (!result.ok) throw new TypeError(result.issues.map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`).join('; '));
      return result.value;
    },
    safeParse(value) {
      const result = read(value, []);
      return result.ok ? { success: true, data: result.value } : { success: false, error: { issues: result.issues } };
    },
  };
}

export function string({
  min = 0,
  max = Number.POSITIVE_INFINITY,
  pattern,
}: {
  min?: number;
  max?: number;
  pattern?: RegExp;
} = {}) {
  return check<string>((value, path) => {
    if (typeof value !== 'string') return fail('Expected a string', path);
    if (value.length < min || value.length > max) return fail(`Expected ${min} to ${max} characters`, path);
    if (pattern && !pattern.test(value)) return fail('Not in the expected form', path);
    return { ok: true, value };
  });
}

export function int({ min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}) {
  return check<number>((value, path) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max
      ? { ok: true, value }
      : fail(`Expected a whole number from ${min} to ${max}`, path),
  );
}

export function boolean() {
  return check<boolean>((value, path) =>
    typeof value === 'boolean' ? { ok: true, value } : fail('Expected true or false', path),
  );
}

export function literal<const T extends string | number | boolean>(expected: T) {
  return check<T>((value, path) =>
    value === expected ? { ok: true, value: expected } : fail(`Expected ${String(expected)}`, path),
  );
}

export function oneOf<const T extends readonly string[]>(values: T) {
  return check<T[number]>((value, path) =>
    typeof value === 'string' && values.includes(value)
      ? { ok: true, value }
      : fail(`Expected one of ${values.join(', ')}`, path),
  );
}

export function nullable<T>(inner: Check<T>) {
  return check<T | null>((value, path) => (value === null ? { ok: true, value: null } : inner.read(value, path)));
}

/** An object field that may be absent (undefined). */
export function optional<T>(inner: Check<T>): Check<T | undefined> & { readonly optionalField: true } {
  return check<T | undefined>((value, path) => (value === undefined ? { ok: true, value: undefined } : inner.read(value, path)), {
    optionalField: true,
  }) as Check<T | undefined> & { readonly optionalField: true };
}

/** A field that reads as `fallback` when absent. */
export function withDefault<T>(inner: Check<T>, fallback: T) {
  return check<T>((value, path) => (value === undefined ? { ok: true, value: fallback } : inner.read(value, path)));
}

/** Whatever cannot be read reads as `fallback` (a stored value from an older version, say). */
export function orElse<T>(inner: Check<T>, fallback: T) {
  return check<T>((value, path) => {
    const result = inner.read(value, path);
    return result.ok ? result : { ok: true, value: fallback };
  });
}

export function array<T>(inner: Check<T>) {
  return check<T[]>((value, path) => {
    if (!Array.isArray(value)) return fail('Expected a list', path);
    const out: T[] = [];
    for (const [index, item] of value.entries()) {
      const result = inner.read(item, [...path, index]);
      if (!result.ok) return result;
      out.push(result.value);
    }
    return { ok: true, value: out };
  });
}

export function tuple<const T extends readonly Check<unknown>[]>(items: T) {
  return check<{ [K in keyof T]: Infer<T[K]> }>((value, path) => {
    if (!Array.isArray(value) || value.length !== items.length) return fail(`Expected a list of ${items.length}`, path);
    const out: unknown[] = [];
    for (const [index, item] of items.entries()) {
      const result = item.read(value[index], [...path, index]);
      if (!result.ok) return result;
      out.push(result.value);
    }
    return { ok: true, value: out as { [K in keyof T]: Infer<T[K]> } };
  });
}

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optionalField: true } ? K : never }[keyof S];
type ObjectOf<S extends Shape> = { [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & {
  [K in OptionalKeys<S>]?: Infer<S[K]>;
};

/** An object with these fields (others are dropped, as zod's objects drop them). */
export function object<S extends Shape>(shape: S) {
  return check<{ [K in keyof ObjectOf<S>]: ObjectOf<S>[K] }>((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('Expected an object', path);
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      const result = field.read((value as Record<string, unknown>)[key], [...path, key]);
      if (!result.ok) return result;
      if (result.value !== undefined || !field.optionalField) out[key] = result.value;
    }
    return { ok: true, value: out as { [K in keyof ObjectOf<S>]: ObjectOf<S>[K] } };
  });
}
