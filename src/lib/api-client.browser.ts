import { fillPath, readWithSchema, type AnswerOf, type BodyOf, type Endpoint, type ParamsOf } from './api-contract.ts';
import { readErrorBody, type FieldIssue } from './api-error.ts';

export type { FieldIssue };

/** The browser's one way to call the store's API: requests built from the endpoint's contract, every answer parsed. */

/** A refusal from the API (its `{error:{code,message,issues}}`), or code `network` when no answer came back. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: FieldIssue[];
  constructor(status: number, code: string, message: string, issues: FieldIssue[] = []) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.issues = issues;
  }
}

export interface CallOptions<E extends Endpoint> {
  params?: ParamsOf<E>;
  body?: BodyOf<E>;
  query?: URLSearchParams;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** Calls an endpoint of the API and answers with its parsed reply; a refusal throws ApiRequestError. */
export async function callApi<E extends Endpoint>(endpoint: E, options: CallOptions<E> = {}): Promise<AnswerOf<E>> {
  const search = options.query?.toString();
  const url = fillPath(endpoint.path, options.params) + (search ? `?${search}` : '');
  return readAnswer(endpoint, await sendRequest(endpoint.method, url, options));
}

/**
 * Sends a request as callApi does (JSON in, JSON asked for); no answer at all throws
 * ApiRequestError code `network`. For a plain script whose light contract declares no body
 * schema (src/features/cart/cart-check.ts), before readAnswer.
 */
export async function sendRequest(
  method: Endpoint['method'],
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  try {
    return await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiRequestError(0, 'network', 'Network error. Please try again.');
  }
}

/**
 * The endpoint's answer from a response, parsed with its schema; a refusal throws ApiRequestError.
 * For a request callApi cannot send (a multipart upload; a light contract's body), after its own fetch.
 */
export async function readAnswer<E extends Endpoint>(endpoint: E, response: Response): Promise<AnswerOf<E>> {
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const refusal = readErrorBody(json);
    if (!refusal)
      throw new ApiRequestError(response.status, 'http_error', `The server answered ${response.status}. Please try again.`);
    const { code, message, issues } = refusal.error;
    throw new ApiRequestError(response.status, code, message, issues);
  }
  const parsed = await readWithSchema(endpoint, json);
  if (!parsed.success) throw new ApiRequestError(response.status, 'bad_response', 'The server sent an answer we could not read.');
  return parsed.data;
}
