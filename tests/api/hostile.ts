import { CONTRACTS } from './all-contracts.ts';
import { checkAnswer } from './client.ts';
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import type { Endpoint } from '../../src/lib/api-contract.ts';
import { errorBodySchema } from '../../src/lib/api-error.ts';
import type { Browser } from './account-helpers.ts';

/**
 * Hostile input for the property tests (tests/api/property-*.test.ts): what a script, a fuzzer
 * or a curious client sends instead of what the store's pages send, and the checks every
 * answer to it must pass: never a 5xx, every refusal in the API's one error shape, and nothing
 * written in D1 by a refused request.
 */

export { CONTRACTS };

/** The endpoints that change state: every method but GET. */
export const MUTATING = CONTRACTS.filter((e) => e.method !== 'GET');

export const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

/**
 * A fixed seed from FC_SEED reproduces a failing run; otherwise each run draws its own (and
 * fast-check prints the seed and path of a failure). workerd has no process.env: the value
 * comes in as a binding (vitest.api.config.ts).
 */
export function runOptions(numRuns: number): fc.Parameters<unknown> {
  const fixed = Number((env as unknown as Record<string, unknown>).FC_SEED);
  return { numRuns, ...(Number.isInteger(fixed) ? { seed: fixed } : {}), endOnFailure: true, reporter: reportFailure };
}

/**
 * A failure as one short message: the seed and path that replay it (FC_SEED), and the request
 * and answer from attemptHolds(). fast-check's own report prints the whole counterexample,
 * which with 70 KB strings buries the reproduction.
 */
function reportFailure(details: fc.RunDetails<unknown>): void {
  if (!details.failed) return;
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed (seed ${details.seed}, path "${details.counterexamplePath}"; FC_SEED=${details.seed} replays it)\n${cause}`,
  );
}

// ── Arbitraries ───────────────────────────────────────────────────────────────────────────

/** Strings that have broken parsers, databases, e-mails and pages elsewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800', // a lone high surrogate: not UTF-8-encodable
  'x\uDFFFy', // a lone low surrogate
  '\u202Egnp.exe', // right-to-left override
  'שלום עולם', // right-to-left script
  '\u200B\u200C\u200D\uFEFF', // zero-width characters and a BOM
  'Z̷̢̛͓a̴̧͔l̵̞̀g̶̱̈́o̸͎͌', // stacked combining marks
  '👩🏽‍💻🇳🇬',
  '\r\nBcc: victim@example.com',
  '<script>alert(1)</script>',
  '</script><h1 id="pwn">x</h1><!--',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE users; --",
  '%00%2e%2e%2f',
  '../../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe, sent as typed.
  '{{7*7}}${7*7}',
  `=HYPERLINK("http://evil.example")`,
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '0x10',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  'prototype',
  'GTS-AAAA',
  'TRD-AAAA',
  'a@b.c',
  'admin@localhost',
  'x'.repeat(300),
  'é'.repeat(5000),
];

/** Numbers at the edges of JSON, JavaScript and SQLite. */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1.5,
  0.1 + 0.2,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  9.999999999999999e22,
];

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  // Lone surrogates and control characters, which fc.string's 'binary' rarely draws.
  {
    weight: 1,
    arbitrary: fc
      .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0, max: 0x1f })), {
        minLength: 1,
        maxLength: 8,
      })
      .map((codes) => String.fromCharCode(...codes)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((s) => s.repeat(2000)) },
);

export const hostileNumber = fc.oneof(
  fc.constantFrom(...NASTY_NUMBERS),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Keys a mass-assignment or prototype-pollution attempt would add. */
export const HOSTILE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'role',
  'isAdmin',
  'userId',
  'id',
  'status',
  'emailVerified',
  'sessionVersion',
  'stock',
  'price',
  'priceKobo',
  'total',
  'subtotal',
  'shipping',
  'credit',
  'version',
  'createdAt',
];

const hostileKey = fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 12 }));

/** Any JSON value, a few levels deep, built from the hostile leaves and keys above. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A value nested `depth` times in arrays or objects, written as text (JSON.stringify would recurse as deep). */
export function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

export const CONTENT_TYPES: readonly (string | null)[] = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'image/png',
  null,
];

/** A body as sent on the wire: its text (or bytes) and its content type. */
export interface RawBody {
  text: string;
  contentType: string | null;
}

/**
 * How one request departs from a valid one. The valid body (the seed) is built fresh for
 * each run by the endpoint's test; these describe what is done to it.
 */
export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'remove'; at: number }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'proto'; key: '__proto__' | 'constructor'; value: unknown }
  | { kind: 'whole'; value: unknown }
  | { kind: 'nested'; depth: number; shape: 'array' | 'object'; at: number }
  | { kind: 'oversized'; at: number }
  | { kind: 'raw'; body: RawBody }
  | { kind: 'retype'; contentType: string | null }
  | { kind: 'valid' };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileJson }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('extra' as const), key: hostileKey, value: hostileJson }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('proto' as const),
      key: fc.constantFrom('__proto__' as const, 'constructor' as const),
      value: hostileJson,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileJson }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('nested' as const),
      depth: fc.oneof(fc.integer({ min: 50, max: 200 }), fc.constantFrom(5_000, 20_000)),
      shape: fc.constantFrom('array' as const, 'object' as const),
      at: fc.nat(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('oversized' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('raw' as const),
      body: fc.record({
        text: fc.oneof(
          fc.constantFrom(
            '',
            '{',
            '}',
            '[',
            'null',
            '[]',
            '{}',
            '"text"',
            '12',
            'true',
            '{"a":1}x',
            '\uFEFF{}',
            'a=1&b=2',
            '{"a":NaN}',
          ),
          fc.string({ unit: 'binary', maxLength: 60 }),
        ),
        contentType: fc.constantFrom(...CONTENT_TYPES),
      }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retype' as const), contentType: fc.constantFrom(...CONTENT_TYPES) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'valid' as const }) },
);

/** Every path into a JSON value (objects' keys and arrays' indexes), the root first. */
function pathsOf(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => pathsOf(v, [...at, i]))];
  if (value && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...at, k]))];
  return here;
}

function setAt(
  root: unknown,
  path: (string | number)[],
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  if (path.length === 0) return;
  let parent = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  change(parent, path.at(-1)!);
}

const PLACEHOLDER = '"\u0001placeholder\u0001"';

/** The request body a mutation makes of a valid seed body. */
export function applyMutation(seed: unknown, m: Mutation): RawBody {
  const json = (text: string): RawBody => ({ text, contentType: 'application/json' });
  const copy = structuredClone(seed ?? {});
  const paths = pathsOf(copy);
  const pick = (at: number) => paths[at % paths.length]!;
  switch (m.kind) {
    case 'valid':
      return json(JSON.stringify(copy));
    case 'whole':
      return json(JSON.stringify(m.value) ?? 'null');
    case 'replace': {
      const path = pick(m.at);
      if (path.length === 0) return json(JSON.stringify(m.value) ?? 'null');
      setAt(copy, path, (parent, k) => {
        parent[k] = m.value;
      });
      return json(JSON.stringify(copy));
    }
    case 'remove': {
      const path = pick(m.at);
      setAt(copy, path, (parent, k) => {
        if (Array.isArray(parent)) parent.splice(Number(k), 1);
        else delete parent[k];
      });
      return json(JSON.stringify(path.length === 0 ? {} : copy));
    }
    case 'extra': {
      const target = copy && typeof copy === 'object' && !Array.isArray(copy) ? copy : {};
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      return json(JSON.stringify(target));
    }
    case 'proto': {
      // As text: an object literal or assignment would set the prototype instead of a key.
      const text = JSON.stringify(copy);
      const extra = `"${m.key}":${JSON.stringify(m.value ?? { role: 'admin', isAdmin: true }) ?? 'null'}`;
      return json(text.startsWith('{') ? `{${extra}${text === '{}' ? '' : ','}${text.slice(1)}` : `{${extra}}`);
    }
    case 'nested':
    case 'oversized': {
      const path = pick(m.at);
      const big = m.kind === 'nested' ? nested(m.depth, m.shape) : JSON.stringify('A'.repeat(70 * 1024));
      if (path.length === 0) return json(big);
      setAt(copy, path, (parent, k) => {
        parent[k] = PLACEHOLDER;
      });
      return json(JSON.stringify(copy).replace(JSON.stringify(PLACEHOLDER), big));
    }
    case 'raw':
      return m.body;
    case 'retype':
      return { text: JSON.stringify(copy), contentType: m.contentType };
  }
}

/** Path parameters a script would try instead of real ones. */
export const hostileParam = fc.oneof(
  fc.constantFrom(
    'GTS-AAAA-AAAA',
    'gts-0000',
    'TRD-ZZZZZZZZZZ',
    '0',
    '-1',
    '1e308',
    '99999999999999999999',
    'NaN',
    '__proto__',
    'constructor',
    '%',
    '%E0%A4%A',
    '%00',
    '%2e%2e%2f%2e%2e',
    '..',
    'a'.repeat(2000),
  ),
  hostileString.filter((s) => s.length > 0 && s.length < 500),
);

/**
 * A path parameter as it goes into a URL: percent-encoded, except lone surrogates (which
 * encodeURIComponent refuses) and raw escapes such as `%E0%A4%A`, which go in as they are.
 */
export function pathSegment(value: string): string {
  if (/^[%A-Za-z0-9]*$/.test(value) && value.includes('%')) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

// ── The checks ────────────────────────────────────────────────────────────────────────────

/** What the counts leave out: rate-limit windows count attempts, refused ones too, on purpose (decision 010). */
const NOT_COUNTED = new Set(['rate_limits', 'd1_migrations']);

let countSql: string | undefined;

/**
 * One statement counting the rows of every table (sqlite_master's list), plus a fingerprint
 * of the columns a refused request must not change in place (stock, prices, roles, session
 * versions, statuses): counts alone would miss an UPDATE.
 */
export async function snapshot(): Promise<Record<string, unknown>> {
  if (!countSql) {
    const { results } = await env.DB.prepare(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' order by name",
    ).all<{ name: string }>();
    const counts = results
      .filter((r) => !NOT_COUNTED.has(r.name))
      .map((r) => `(select count(*) from "${r.name}") as "${r.name}"`);
    const fingerprints = [
      `(select group_concat(id || ':' || stock || ':' || price_kobo || ':' || active, ',') from products) as "products*"`,
      `(select group_concat(product_id || '/' || id || ':' || stock || ':' || price_kobo, ',') from product_variants) as "product_variants*"`,
      `(select group_concat(id || ':' || role || ':' || session_version || ':' || coalesce(email_verified, '') || ':' || coalesce(password_hash, ''), ',') from users) as "users*"`,
      `(select group_concat(number || ':' || status, ',') from orders) as "orders*"`,
      `(select group_concat(reference || ':' || status || ':' || version, ',') from trade_ins) as "trade_ins*"`,
    ];
    countSql = `select ${[...counts, ...fingerprints].join(', ')}`;
  }
  return (await env.DB.prepare(countSql).first())!;
}

/** What the property tests send: an endpoint, its path filled in, a body, extra headers. */
export interface Attempt {
  method: string;
  url: string;
  body: RawBody | { bytes: Uint8Array<ArrayBuffer> | FormData; contentType: string | null };
  headers?: Record<string, string>;
}

/** Sends an attempt through `browser` (its cookies, vars and Origin). */
export function sendAttempt(browser: Browser, attempt: Attempt): Promise<Response> {
  const headers: Record<string, string> = { origin: browser.origin, ...attempt.headers };
  const { body } = attempt;
  if (body.contentType !== null) headers['content-type'] = body.contentType;
  const payload = 'text' in body ? body.text : body.bytes;
  return browser.request(attempt.url, {
    method: attempt.method,
    headers,
    body: attempt.method === 'GET' ? undefined : payload,
  });
}

const shorten = (text: string, max = 600) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

export function describeAttempt(attempt: Attempt): string {
  const body = 'text' in attempt.body ? shorten(JSON.stringify(attempt.body.text)) : '(bytes or form)';
  return `${attempt.method} ${shorten(attempt.url, 200)} content-type=${attempt.body.contentType} headers=${JSON.stringify(attempt.headers ?? {})} body=${body}`;
}

/**
 * Sends the attempt and checks the three properties: no 5xx; a non-2xx answer is exactly
 * `{error:{code,message,issues?}}`; a non-2xx answer left every table as it was. A 2xx answer
 * must fit the endpoint's contract. Throws (with the request, for a reproduction) otherwise.
 */
export async function attemptHolds(browser: Browser, endpoint: Endpoint, attempt: Attempt): Promise<Response> {
  const before = await snapshot();
  const response = await sendAttempt(browser, attempt);
  const text = await response.clone().text();
  const fail = (why: string) =>
    new Error(`${why}\n  request: ${describeAttempt(attempt)}\n  answer: ${response.status} ${shorten(text)}`);
  if (response.status >= 500) throw fail('a 5xx answer');
  const ok = response.status >= 200 && response.status < 300;
  const contentType = response.headers.get('content-type') ?? '';
  if (!ok || contentType.startsWith('application/json')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw fail('an answer that is not JSON');
    }
    if (!ok) {
      const parsed = errorBodySchema.safeParse(json);
      if (!parsed.success) throw fail('a refusal not in the error shape');
      // Exactly the shape: nothing beside `error`, nothing beside code, message and issues.
      if (JSON.stringify(parsed.data) !== JSON.stringify(json)) throw fail('a refusal with fields beyond the error shape');
    } else {
      const fits = checkAnswer(endpoint.response, json);
      if (!fits.success) throw fail(`a 2xx answer outside its contract: ${JSON.stringify(fits.issues).slice(0, 300)}`);
    }
  }
  if (!ok) {
    const after = await snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    if (changed.length) throw fail(`a refused request wrote to D1: ${changed.join(', ')}`);
  }
  return response;
}

// ── One property per endpoint ─────────────────────────────────────────────────────────────

/** A valid request to the endpoint, built fresh for each run (path parameters, body, headers). */
export interface ValidRequest {
  params?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Header values a script would send in place of real ones (tokens, cookies). */
export const hostileHeader = fc.oneof(
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    `Bearer ${'x'.repeat(43)}`,
    `Bearer ${'A'.repeat(5000)}`,
    'Basic YWRtaW46YWRtaW4=',
    'Bearer ../..',
  ),
  fc.string({ unit: 'grapheme-ascii', maxLength: 60 }),
);

/** Which part of a valid request a run changes: the body always (a `valid` mutation leaves it), a path parameter or a header sometimes. */
export const requestChange = fc.record({
  body: mutation,
  param: fc.option(fc.record({ at: fc.nat(), value: hostileParam }), { freq: 3 }),
  header: fc.option(fc.record({ at: fc.nat(), value: hostileHeader }), { freq: 4 }),
});
export type RequestChange = typeof requestChange extends fc.Arbitrary<infer T> ? T : never;

/** The attempt a change makes of a valid request to the endpoint. */
export function attemptFor(endpoint: Endpoint, valid: ValidRequest, change: RequestChange): Attempt {
  const params = { ...valid.params };
  const names = [...endpoint.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => name!);
  if (change.param && names.length) params[names[change.param.at % names.length]!] = change.param.value;
  const url = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => pathSegment(params[name] ?? 'x'));
  const headers = { ...valid.headers };
  const headerNames = Object.keys(headers);
  if (change.header && headerNames.length) headers[headerNames[change.header.at % headerNames.length]!] = change.header.value;
  return { method: endpoint.method, url, body: applyMutation(valid.body ?? {}, change.body), headers };
}

/**
 * The property for one endpoint: whatever a run does to a valid request (body, a path
 * parameter, a header), the answer holds (attemptHolds). `actor` is who sends it, `valid`
 * builds a request that would succeed. A refused request changes nothing (that is the
 * property), so its valid request serves the next run too; it is built again only after an
 * answer that succeeded (and may have used it up), which keeps the suite fast.
 */
export async function everyAnswerHolds(
  endpoint: Endpoint,
  actor: () => Browser | Promise<Browser>,
  valid: () => ValidRequest | Promise<ValidRequest>,
  numRuns = 25,
): Promise<void> {
  let request: ValidRequest | undefined;
  await fc.assert(
    fc.asyncProperty(requestChange, async (change) => {
      request ??= await valid();
      const response = await attemptHolds(await actor(), endpoint, attemptFor(endpoint, request, change));
      if (response.ok) request = undefined;
    }),
    runOptions(numRuns),
  );
}
