import { array, type Infer, object, optional, string } from './light-schema.ts';

/**
 * The one error shape of the API, `{ error: { code, message, issues? } }`: the Worker
 * answers every refusal with it (functions/platform/errors.ts) and the browser reads it with
 * this check. A light check (src/lib/light-schema.ts), so the plain scripts on every page (the
 * newsletter form, the header's session) can read it without zod.
 */
export const fieldIssueSchema = object({ field: string(), message: string() });
export type FieldIssue = Infer<typeof fieldIssueSchema>;

export const errorBodySchema = object({
  error: object({
    code: string(),
    message: string(),
    issues: optional(array(fieldIssueSchema)),
  }),
});
export type ErrorBody = Infer<typeof errorBodySchema>;

/** The API's refusal in a response body, or undefined when the body is not one. */
export function readErrorBody(json: unknown): ErrorBody | undefined {
  const read = errorBodySchema.safeParse(json);
  return read.success ? read.data : undefined;
}
