import { atom } from 'nanostores';

/**
 * Set when any admin call answers 401 (the session ended) or 403 (not, or no longer, an
 * admin): the whole page then shows the Access Denied message. Its own small module, so
 * the access gate (AdminApp.tsx) reads it without loading the admin screens.
 */
export const $adminDenied = atom<0 | 401 | 403>(0);
