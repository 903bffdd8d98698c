import { safeParse } from 'zod/mini';
import { deviceIdSchema } from './install-api.ts';

const DEVICE_ID_KEY = 'gtsDeviceId';

/**
 * This browser's device id (seed spec §3: generated randomly and stored locally): a
 * crypto.randomUUID() kept in localStorage. It names the device to the install-offer API
 * and nothing else. Blocked storage gives a fresh id each time (the offer may then repeat).
 */
export function deviceId(): string {
  try {
    const stored = localStorage.getItem(DEVICE_ID_KEY);
    if (stored && safeParse(deviceIdSchema, stored).success) return stored;
    const id = crypto.randomUUID();
    localStorage.setItem(DEVICE_ID_KEY, id);
    return id;
  } catch {
    return crypto.randomUUID();
  }
}
