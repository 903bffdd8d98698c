import { existsSync } from 'node:fs';

/** The Chromium builds the browser tests run in (playwright.config.ts), and their flags. */

/**
 * Debian's Chromium, the whole browser: what tests/e2e/pwa.spec.ts runs in, for the features only
 * a browser has (notifications and their permission; the shell has no Notification).
 */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Every other test runs in Chromium's headless shell (Debian's chromium-headless-shell, the build
 * Playwright itself uses for headless runs): the same engine, without the browser around it. The
 * browser tests took a third less CPU in it (decision 030). The whole browser when the shell is
 * not installed, or when CHROMIUM_PATH names one.
 */
export const HEADLESS_CHROMIUM =
  process.env.CHROMIUM_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : FULL_CHROMIUM);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
