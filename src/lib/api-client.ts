import { z } from 'zod';

/** The browser's one way to call the store's API: every answer is parsed, never trusted. */

export interface FieldIssue {
  field: string;
  message: string;
}

const errorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
});

/** A refusal from the API (its `{error:{code,message,issues}}`), or code `network` when no answer came back. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: FieldIssue[];
  constructor(status: number, code: string, message: string, issues: FieldIssue[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

type JsonRequestInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

export async function requestJson<T>(url: string, schema: z.ZodType<T>, init: JsonRequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch {
    throw new ApiRequestError(0, 'network', 'Network error. Please try again.');
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const parsed = errorSchema.safeParse(json);
    if (!parsed.success) throw new ApiRequestError(response.status, 'http_error', `HTTP ${response.status}`);
    const { code, message, issues } = parsed.data.error;
    throw new ApiRequestError(response.status, code, message, issues);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ApiRequestError(response.status, 'bad_response', 'The server sent an answer we could not read.');
  return parsed.data;
}

export function postJson<T>(url: string, body: unknown, schema: z.ZodType<T>, headers: Record<string, string> = {}): Promise<T> {
  return requestJson(url, schema, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}
