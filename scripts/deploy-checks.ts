import { isLocalSite, isOn } from '../functions/env.ts';

/** Flags for local runs and tests that must never be on in a deployed store, and why. */
const LOCAL_ONLY_FLAGS: Record<string, string> = {
  PAYMENTS_STANDIN: '"pays" any order on request',
  AUTH_GOOGLE_STANDIN: "signs anyone in as any address, an admin's too",
  EMAIL_LOG_BODIES: "writes shoppers' addresses and e-mails into the logs",
};

/**
 * What in a build's vars must not reach Cloudflare (`npm run deploy` stops on any of them before
 * anything changes there): a SITE_URL that is not the store's own https address (e-mailed links
 * and canonical URLs would point at a developer's machine; wrangler.toml's [vars] ship the local
 * one, for `npm start`), and any local-only flag. The Worker refuses the stand-ins off a local
 * SITE_URL too (functions/env.ts); this says so before the deploy, not after.
 */
export function productionProblems(vars: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const site = typeof vars.SITE_URL === 'string' ? vars.SITE_URL : '';
  let url: URL | undefined;
  try {
    url = new URL(site);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:' || isLocalSite(site))
    problems.push(
      `SITE_URL is "${site || '(unset)'}": set it to the store's https address in wrangler.toml (links in e-mails and canonical URLs use it)`,
    );
  for (const [flag, danger] of Object.entries(LOCAL_ONLY_FLAGS))
    if (isOn(vars[flag])) problems.push(`${flag} is on: it ${danger}; it is for local runs and tests only`);
  return problems;
}
