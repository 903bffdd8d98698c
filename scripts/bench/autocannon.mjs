/**
 * The benchmark's HTTP load runs (autocannon), shared by the API load run (load.mjs) and the
 * catalogue at scale (scale.mjs): the same connections, and one summary of each run.
 */
import autocannon from 'autocannon';

export const DURATION_S = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 10);

/** Runs autocannon with `options` and answers its result with the count of each status code. */
export function cannon(options) {
  const statuses = {};
  return new Promise((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options }, (err, result) =>
      err ? reject(err) : resolve({ result, statuses }),
    );
    instance.on('response', (_client, statusCode) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
}

/** A run's figures; a status outside `okStatuses` counts as an error, as do autocannon's errors and timeouts. */
export function summary(name, { result, statuses }, okStatuses) {
  const unexpected = Object.entries(statuses).filter(([code]) => !okStatuses.includes(Number(code)));
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    statuses,
    errors: result.errors + result.timeouts + unexpected.reduce((n, [, count]) => n + count, 0),
  };
}
