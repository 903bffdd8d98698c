import type { Endpoint } from '../../src/lib/api-contract.ts';

/** The Hono app's base path: every API route is under it. */
export const API_BASE = '/api';

type Below<Path extends string, Base extends string> = Path extends `${Base}${infer Rest}`
  ? Rest extends ''
    ? '/'
    : Rest
  : never;

/**
 * Where a router mounted at `base` serves an endpoint: the part of the contract's path
 * (src/lib/api-contract.ts) below `base`, so a path is written once, in the contract, and
 * the browser's client and the Worker cannot drift apart. `at('/api/orders', orderApi.get)`
 * is `'/:number'`; the type keeps the literal, so Hono still types `c.req.param()`.
 */
export function at<const Base extends `${typeof API_BASE}/${string}`, E extends Endpoint>(
  base: Base,
  endpoint: E,
): Below<E['path'], Base> {
  const path = endpoint.path as string;
  if (path !== base && !path.startsWith(`${base}/`)) throw new Error(`${endpoint.method} ${path} is not under ${base}`);
  return (path.slice(base.length) || '/') as Below<E['path'], Base>;
}

/** Where `app.route()` (already under API_BASE) mounts a router whose routes use `at(base, …)`. */
export function mountPoint<const Base extends `${typeof API_BASE}/${string}`>(base: Base): Below<Base, typeof API_BASE> {
  return base.slice(API_BASE.length) as Below<Base, typeof API_BASE>;
}
