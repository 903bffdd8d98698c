import { callApi } from '../../lib/api-client.browser.ts';
import type { PlaceOrderRequest } from './checkout.ts';
import { orderApi } from './order-api.ts';
import type { OrderView, PlacedOrder } from './order-view.ts';

/** Browser-side calls to the order API (errors: ApiRequestError from src/lib/api-client.browser.ts). */

export function placeOrder(request: PlaceOrderRequest): Promise<PlacedOrder> {
  return callApi(orderApi.place, { body: request });
}

const withToken = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

/** The order this browser placed (it holds the order's access token). */
export function fetchOwnOrder(number: string, accessToken: string): Promise<PlacedOrder> {
  return callApi(orderApi.get, { params: { number }, headers: withToken(accessToken) }).then(({ order }) => ({
    order,
    accessToken,
  }));
}

export async function reportPayment(number: string, accessToken: string): Promise<OrderView> {
  const { order } = await callApi(orderApi.reportPayment, { params: { number }, headers: withToken(accessToken) });
  return order;
}

export async function cancelOrder(number: string, accessToken: string): Promise<OrderView> {
  const { order } = await callApi(orderApi.cancel, { params: { number }, headers: withToken(accessToken) });
  return order;
}

export async function lookupOrder(number: string, email: string): Promise<OrderView> {
  const { order } = await callApi(orderApi.lookup, { body: { number, email } });
  return order;
}
