import { expect, test } from './fixtures.ts';

/**
 * Answers given without reading the request body, against the real Worker in
 * `wrangler dev`. Before functions/worker.ts drained such bodies, these requests, or the
 * next one on the same connection, intermittently failed with a 500 "Network
 * connection lost" from wrangler's proxy.
 */
const padding = (bytes: number) => JSON.stringify({ lines: [], padding: 'x'.repeat(bytes) });

test('POSTs answered without reading their bodies never turn into 500s', async ({ request }) => {
  const few = padding(4 * 1024);
  const oversized = padding(80 * 1024);
  const json = { 'content-type': 'application/json' };
  const answers: string[] = [];
  const expected: string[] = [];
  const record = async (label: string, status: number, call: Promise<{ status(): number; text(): Promise<string> }>) => {
    const response = await call;
    // Read every answer to its end, as a browser does, before the next request.
    const text = await response.text();
    answers.push(`${label} ${response.status()}${response.status() >= 500 ? ` ${text.slice(0, 80)}` : ''}`);
    expected.push(`${label} ${status}`);
  };

  for (let i = 0; i < 12; i++) {
    // Unknown API path: the 404 comes from routing alone.
    await record(`#${i} unknown path`, 404, request.post('/api/no-such-route', { headers: json, data: few }));
    // No access token: refused before the body would be parsed.
    await record(
      `#${i} cancel without token`,
      401,
      request.post('/api/orders/GTS-AAAAAAAAAA/cancel', { headers: json, data: few }),
    );
    // Over the 64 KB limit: refused from Content-Length.
    await record(`#${i} oversized order`, 413, request.post('/api/orders', { headers: json, data: oversized }));
    // Normal requests in between: one without a body, one that reads its body.
    await record(`#${i} health`, 200, request.get('/api/health'));
    await record(
      `#${i} quote`,
      200,
      request.post('/api/orders/quote', { headers: json, data: { lines: [{ productId: 'jbl-flip-7', quantity: 1, price: 0 }] } }),
    );
    // A page path (the Astro adapter) answering a POST with a body.
    await record(`#${i} page POST`, 404, request.post('/no/such/page', { headers: json, data: few }));
  }
  expect(answers).toEqual(expected);
});
