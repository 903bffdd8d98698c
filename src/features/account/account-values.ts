/** Values the accounts schema (functions/platform/schema.ts) and the API contract (account-api.ts) share. */

/** `admin` can use the admin API; everyone else is a `customer`. Only a database command makes an admin (README). */
export const ROLES = ['customer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** The theme preference a profile stores (the site's default is dark). */
export const THEMES = ['dark', 'light'] as const;
export type Theme = (typeof THEMES)[number];
