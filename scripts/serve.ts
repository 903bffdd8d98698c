/**
 * Serves the built store in workerd on its own port and its own local D1, migrated
 * and seeded: the browser tests' servers, so they never touch the development database
 * or port 8787 (scripts/store-server.ts starts them; the benchmark starts its own there
 * too). Needs `npm run build` first.
 *
 *   PORT=8799 D1_PERSIST_DIR=.wrangler/e2e FRESH_DB=1 node scripts/serve.ts
 *
 * PORTS=8801,8802 instead starts one server per port, each with its own copy of the D1
 * (migrated and seeded once, then copied) and of the build, so that no server sees what a
 * test did on another: the browser tests run one per Playwright worker. Server i keeps its
 * state in `<D1_PERSIST_DIR>/<i>` (its D1, persisted there as `--persist-to` does) and serves
 * its copy of the build from `<D1_PERSIST_DIR>/<i>/build` (tests/e2e/d1.ts finds them there).
 */
import { cpSync, rmSync } from 'node:fs';
import { type StoreServer, setUpD1, startStore } from './store-server.ts';

const persist = process.env.D1_PERSIST_DIR ?? '.wrangler/state';
const buildDir = process.env.BUILD_DIR ?? 'dist';
const ports = process.env.PORTS?.split(',').filter(Boolean);

if (process.env.FRESH_DB) rmSync(persist, { recursive: true, force: true });
let servers: StoreServer[];
if (ports) {
  // One migration and seed (wrangler is slow to start), copied to every server while none runs.
  const seeded = `${persist}/seeded`;
  setUpD1(seeded);
  servers = ports.map((port, index) => {
    const dir = `${persist}/${index}`;
    rmSync(dir, { recursive: true, force: true });
    cpSync(seeded, dir, { recursive: true });
    // Its own build too: a test may change a built file (the service-worker update test does).
    cpSync(buildDir, `${dir}/build`, { recursive: true });
    return startStore({ port, d1Dir: dir, buildDir: `${dir}/build` });
  });
} else {
  setUpD1(persist);
  servers = [startStore({ port: process.env.PORT ?? '8787', d1Dir: persist, buildDir })];
}

const stop = () => {
  for (const server of servers) void server.stop();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// One server gone (a crash, or stopped): stop the others and leave with its code.
for (const server of servers) {
  server.process.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  });
}
