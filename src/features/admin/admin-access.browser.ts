import { atom } from 'nanostores';

/**
 * Set when an admin call is refused for want of permission (deniedAccess in
 * use-admin.browser.ts): 401, the session ended, or 403 `forbidden`, not (or no longer) an
 * admin. The whole page then shows the Access Denied message. Its own small module, so the
 * access gate (AdminApp.tsx) reads it without loading the admin screens.
 */
export const $adminDenied = atom<0 | 401 | 403>(0);
