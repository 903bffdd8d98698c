import { env } from 'cloudflare:workers';
import { Browser, newEmail, signedInUser } from './account-helpers.ts';

/** A browser signed in as a new admin (a new account whose role D1 then sets to 'admin'); answers it with the admin's e-mail and id. */
export async function signedInAdmin(email = newEmail('admin')): Promise<{ browser: Browser; email: string; id: string }> {
  const browser = new Browser();
  const id = await signedInUser(browser, email);
  await env.DB.prepare("update users set role = 'admin' where id = ?").bind(id).run();
  return { browser, email, id };
}

/** A browser signed in as a new customer (no admin rights). */
export async function signedInCustomer(email = newEmail('customer')): Promise<{ browser: Browser; email: string; id: string }> {
  const browser = new Browser();
  const id = await signedInUser(browser, email);
  return { browser, email, id };
}

/** Sends a JSON request with another method (PUT, DELETE) the way the store's pages would: with Origin. */
export function send(browser: Browser, method: 'PUT' | 'DELETE' | 'POST', path: string, body?: unknown) {
  return browser.request(`/api${path}`, {
    method,
    headers: { origin: browser.origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
