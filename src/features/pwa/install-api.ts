// zod/mini: the install offer is a plain script on every page; full zod would add ~13 KB to each.
import { z } from 'zod/mini';
import { endpoint } from '../../lib/api-contract.ts';

const DEVICE_ID_MESSAGE = 'deviceId must be the device id this browser made (a UUID)';

/** The random id a browser keeps for itself (crypto.randomUUID(), in localStorage): the spec's device identifier. */
export const deviceIdSchema = z.uuid({ error: DEVICE_ID_MESSAGE });

/** The device named in GET /api/check-install-prompt/:deviceId's path, and POST /api/dismiss-install-prompt's body. */
export const deviceSchema = z.object({ deviceId: deviceIdSchema });

/**
 * The install offer's two calls (seed spec §7, decisions: "dismissals stored per device in D1").
 * The banner shows only when the server says so, the app is not installed and the browser
 * offers installation (docs/decisions/015-service-worker-and-offline.md).
 */
export const installApi = {
  /** Whether this device should be offered the install banner: false once it dismissed or used it. */
  check: endpoint({
    method: 'GET',
    path: '/api/check-install-prompt/:deviceId',
    response: z.object({ shouldShowPrompt: z.boolean() }),
  }),
  /** Records that this device dismissed (or used) the offer. A repeat is recorded too: always 200. */
  dismiss: endpoint({
    method: 'POST',
    path: '/api/dismiss-install-prompt',
    body: deviceSchema,
    response: z.object({ dismissed: z.literal(true) }),
  }),
};
