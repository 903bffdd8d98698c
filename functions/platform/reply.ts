import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Endpoint, ReplyOf } from '../../src/lib/api-contract.ts';

/**
 * Answers with the endpoint's declared response shape (src/lib/api-contract.ts): a
 * body that no longer fits the schema the browser parses with is a type error here.
 */
export function reply<E extends Endpoint>(
  c: Context,
  _endpoint: E,
  body: ReplyOf<E>,
  status: ContentfulStatusCode = 200,
  headers?: Record<string, string>,
) {
  return c.json(body, status, headers);
}
