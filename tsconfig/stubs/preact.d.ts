// @auth/core's type declarations import preact (for the sign-in pages it can render, which
// this store does not use), and preact's JSX types pull in the whole DOM library with
// `/// <reference lib="dom" />`. The Worker project maps preact here so the DOM stays out of
// it (decision 008). What @auth/core types with these is loose in the Worker, which never
// renders them.
export declare namespace JSX {
  type IntrinsicElements = Record<string, Record<string, unknown>>;
  type Element = unknown;
}
export type VNode = unknown;
export type ComponentChildren = unknown;
export declare const h: (...args: unknown[]) => unknown;
