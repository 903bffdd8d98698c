import type { z } from 'zod/mini';
import type { InferInput, InferOutput, StandardSchemaV1 } from './light-schema.ts';

/**
 * The store's API as both sides know it. Each endpoint names its method, its path
 * (with `:params`), the schema of the body it takes and the schema of the answer it
 * gives. The Worker validates the body and types its answer with them
 * (functions/platform/reply.ts); the browser's client (src/lib/api-client.browser.ts) builds
 * the request and parses the answer with them. Changing an answer on one side without
 * the other is a type error, and the API tests parse every answer with the same
 * schema. See docs/decisions/009-api-contracts-not-hono-client.md.
 */
export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: `/api/${string}`;
  body?: z.core.$ZodType;
  /**
   * A Standard Schema: zod, or a light check (src/lib/light-schema.ts) for an answer a plain page
   * script reads (the session, the install offer), which must not pull zod into every page.
   */
  response: StandardSchemaV1;
}

/** Declares an endpoint, keeping its literal path and exact schemas in the type. */
export function endpoint<const E extends Endpoint>(definition: E): E {
  return definition;
}

/** What the Worker must send (the schema's input side). */
export type ReplyOf<E extends Endpoint> = InferInput<E['response']>;
/** What the browser gets once the answer is parsed. */
export type AnswerOf<E extends Endpoint> = InferOutput<E['response']>;

/** Checks an answer against its endpoint's schema, zod or light alike (the browser's client, the API tests). */
export async function readWithSchema<E extends Endpoint>(
  endpoint: E,
  value: unknown,
): Promise<{ success: true; data: AnswerOf<E> } | { success: false; issues: readonly { message: string }[] }> {
  const result = await endpoint.response['~standard'].validate(value);
  return result.issues ? { success: false, issues: result.issues } : { success: true, data: result.value as AnswerOf<E> };
}
/** What the browser sends as the body. */
export type BodyOf<E extends Endpoint> = E['body'] extends z.core.$ZodType ? z.input<E['body']> : never;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;
/** The values of the `:params` in an endpoint's path. */
export type ParamsOf<E extends Endpoint> = Record<ParamNames<E['path']>, string>;

/** The endpoint's path with its `:params` filled in (each one URL-encoded). */
export function fillPath(path: string, params: Readonly<Record<string, string>> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter :${name} for ${path}`);
    return encodeURIComponent(value);
  });
}
