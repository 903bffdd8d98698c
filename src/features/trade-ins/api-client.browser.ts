import { ApiRequestError, callApi, readAnswer } from '../../lib/api-client.browser.ts';
import type { Customer } from '../orders/checkout.ts';
import type { PlacedOrder } from '../orders/order-view.ts';
import type { TradeInRequest, TradeInView } from './trade-in.ts';
import { tradeInApi } from './trade-in-api.ts';

/** Browser-side calls to the trade-in API (refusals: ApiRequestError, as src/lib/api-client.browser.ts throws them). */

/** A photo as it is uploaded: the (downscaled) image and the file name it goes with. */
export interface UploadPhoto {
  blob: Blob;
  name: string;
}

/**
 * POST /api/trade-ins: multipart, so not through callApi (which sends JSON). The `request`
 * part is the form's fields as JSON, each photo a `photos` part. No content-type header:
 * the browser writes it with the multipart boundary.
 */
export async function submitTradeIn(request: TradeInRequest, photos: readonly UploadPhoto[]): Promise<TradeInView> {
  const body = new FormData();
  body.append('request', JSON.stringify(request));
  for (const photo of photos) body.append('photos', photo.blob, photo.name);
  let response: Response;
  try {
    response = await fetch(tradeInApi.submit.path, { method: 'POST', headers: { accept: 'application/json' }, body });
  } catch {
    throw new ApiRequestError(0, 'network', 'Network error. Please try again.');
  }
  return (await readAnswer(tradeInApi.submit, response)).tradeIn;
}

export async function lookupTradeIn(reference: string, email: string): Promise<TradeInView> {
  const { tradeIn } = await callApi(tradeInApi.lookup, { body: { reference, email } });
  return tradeIn;
}

/** How the requester proves it is theirs: signed in as the owner (nothing), or the request's e-mail. */
export interface RequesterProof {
  email?: string;
}

export async function respondToOffer(
  reference: string,
  proof: RequesterProof,
  decision: 'accept' | 'decline',
  offer: number,
): Promise<TradeInView> {
  const { tradeIn } = await callApi(tradeInApi.respond, { params: { reference }, body: { ...proof, decision, offer } });
  return tradeIn;
}

export function placeSwapOrder(
  reference: string,
  proof: RequesterProof,
  body: { idempotencyKey: string; customer: Customer; price?: number },
): Promise<PlacedOrder> {
  return callApi(tradeInApi.order, { params: { reference }, body: { ...proof, ...body } });
}

export async function myTradeIns(signal?: AbortSignal): Promise<TradeInView[]> {
  const { tradeIns } = await callApi(tradeInApi.mine, { signal });
  return tradeIns;
}
