import { z } from 'zod/mini';

/**
 * The one error shape of the API, `{ error: { code, message, issues? } }`: the Worker
 * answers every refusal with it (functions/platform/errors.ts) and the browser parses it
 * with this schema. Written with zod/mini so the plain scripts on every page (the
 * newsletter form) can parse it without the full zod.
 */
export const fieldIssueSchema = z.object({ field: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof fieldIssueSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.optional(z.array(fieldIssueSchema)),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
