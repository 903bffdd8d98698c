/**
 * The installability part of `npm run bench`: whether Chromium would offer to install the
 * store (manifest, icons, service worker).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Whether Chromium would offer to install the store (manifest, icons, service worker), asked
 * through the DevTools protocol (Page.getInstallabilityErrors): the check Lighthouse's
 * "installable-manifest" audit ran until Lighthouse 12 dropped the PWA category.
 */
export async function installability(port, origin) {
  const target = await (
    await fetch(`http://127.0.0.1:${port}/json/new?${encodeURIComponent(`${origin}/`)}`, { method: 'PUT' })
  ).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let id = 0;
  const pending = new Map();
  socket.onmessage = (message) => {
    const data = JSON.parse(String(message.data));
    pending.get(data.id)?.(data);
    pending.delete(data.id);
  };
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    // The page registers its service worker after load; Chromium needs it active to call the store installable.
    const deadline = Date.now() + 20_000;
    let errors = [];
    for (;;) {
      const answer = await send('Page.getInstallabilityErrors');
      errors = (answer.result?.installabilityErrors ?? []).map((e) => e.errorId);
      if (!errors.length || Date.now() > deadline) break;
      await sleep(500);
    }
    const manifest = (await send('Page.getAppManifest')).result ?? {};
    return {
      installable: errors.length === 0,
      errors,
      manifestUrl: manifest.url ?? null,
      manifestErrors: (manifest.errors ?? []).map((e) => e.message),
    };
  } finally {
    socket.close();
    await fetch(`http://127.0.0.1:${port}/json/close/${target.id}`).catch(() => undefined);
  }
}

/** Prints Chromium's answer. */
export function printInstallability(install) {
  console.log(
    `\nInstallable (Chromium's check, Page.getInstallabilityErrors): ${install.installable ? 'yes' : `NO: ${install.errors.join(', ')}`}; manifest ${install.manifestUrl ?? 'none'}${install.manifestErrors.length ? ` with errors: ${install.manifestErrors.join('; ')}` : ''}`,
  );
}
