import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';

import type { ErrorBody, FieldIssue } from '../../src/lib/api-error.ts';

export type { ErrorBody, FieldIssue };

/** An error the API answers with on purpose (a 4xx with a code the client can act on). */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: string;
  readonly issues?: FieldIssue[];
  constructor(status: ContentfulStatusCode, code: string, message: string, issues?: FieldIssue[]) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

/** 429 `rate_limited`: a limit the request's key (not its client) ran into; answered with `Retry-After`. */
export class RetryLater extends ApiError {
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, message: string) {
    super(429, 'rate_limited', message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Any zod error (classic or core): only its issues are read. */
type ZodLikeError = Pick<z.core.$ZodError, 'issues'>;

export function issuesFromZod(error: ZodLikeError): FieldIssue[] {
  return error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message }));
}

export function invalidRequest(error: ZodLikeError, what = 'request'): ApiError {
  const issues = issuesFromZod(error);
  const fields = [...new Set(issues.map((i) => i.field))].join(', ');
  return new ApiError(400, 'invalid_request', `The ${what} is not valid: check ${fields}.`, issues);
}

/**
 * A move a state machine (src/features/orders/order-status.ts, src/features/trade-ins/trade-in-status.ts)
 * refuses: always 409, since the refusal is about the record's state, not about who is asking.
 * `illegal_transition`: no such move from the current status; `transition_not_allowed`: this
 * actor may not make it (a shopper confirming their own payment). 403 `forbidden` is kept for
 * permission refusals alone (requireAdmin, a cross-site write), which the admin island shows as
 * Access Denied.
 */
export function transitionRefused(refusal: { reason: 'illegal' | 'not_allowed'; message: string }): ApiError {
  return new ApiError(409, refusal.reason === 'illegal' ? 'illegal_transition' : 'transition_not_allowed', refusal.message);
}

export function errorBody(code: string, message: string, issues?: FieldIssue[]): ErrorBody {
  return { error: issues?.length ? { code, message, issues } : { code, message } };
}

/** Installed once by createApp(): every thrown error ends here. */
export function handleError(err: Error, c: Context) {
  if (err instanceof RetryLater)
    return c.json(errorBody(err.code, err.message), err.status, {
      'Retry-After': String(err.retryAfterSeconds),
      'cache-control': 'no-store',
    });
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, err.issues), err.status);
  if (err instanceof HTTPException) {
    // Hono's own 4xx: malformed JSON, body too large, a CSRF refusal.
    const status = err.status;
    const code = status === 413 ? 'payload_too_large' : status === 403 ? 'forbidden' : 'bad_request';
    const message = err.message || 'The request could not be read.';
    // A body that is not JSON at all: the field at fault is the whole body.
    const issues = status === 400 ? [{ field: '(body)', message }] : undefined;
    return c.json(errorBody(code, message, issues), status as ContentfulStatusCode);
  }
  console.error('Unhandled API error', c.req.method, c.req.path, describeError(err));
  return c.json(errorBody('internal_error', 'Something went wrong on our side. Please try again.'), 500);
}

export function handleNotFound(c: Context) {
  return c.json(errorBody('not_found', `There is no API route for ${c.req.method} ${c.req.path}.`), 404);
}

/**
 * An error as the log may show it: names and messages down the cause chain, without
 * the parameters a failed query carries (drizzle's "Failed query: … params: …" holds the
 * customer's name, address and e-mail text, which have no place in a log).
 */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = err; e !== undefined && parts.length < 5; e = e instanceof Error ? e.cause : undefined) {
    if (!(e instanceof Error)) {
      parts.push(String(e));
      break;
    }
    const message = e.message.startsWith('Failed query:') ? 'Failed query (its parameters are not logged)' : e.message;
    parts.push(`${e.name}: ${message}`);
  }
  // Only the frames: the stack's first lines repeat the message, parameters and all.
  const frames =
    err instanceof Error
      ? err.stack
          ?.split('\n')
          .filter((line) => line.trimStart().startsWith('at '))
          .slice(0, 3)
      : [];
  const top = frames?.join('\n');
  return [parts.join(' <- '), top].filter(Boolean).join('\n');
}
