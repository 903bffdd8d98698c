/**
 * `npm run deploy`: ships the store to Cloudflare, the whole path, safe to run again:
 *   1. builds (for `--env staging`, a build of its own, CLOUDFLARE_ENV=staging), and stops if the
 *      build's vars are not fit for a deployed store (scripts/deploy-checks.ts: a local SITE_URL,
 *      a stand-in or another local-only flag on);
 *   2. finds the D1 database by name, or creates it, and puts its id in the build's config;
 *   3. finds the R2 bucket for images, or creates it;
 *   4. checks the secrets: the required ones must be set (it stops and names them), the optional
 *      ones are listed with what is off without them;
 *   5. applies pending migrations to the remote D1, before the new Worker goes live (each
 *      migration only adds: the Worker running now keeps working on the migrated database);
 *   6. brings the data files' changes into D1 field by field (scripts/catalogue/sync.ts): new
 *      products added, changed fields applied unless an admin changed them too (listed instead);
 *   7. checks the upload size and the startup time (scripts/worker-size.ts), then deploys.
 * `--dry-run` runs it with no Cloudflare account: it prints each step and the command it would
 * run, builds, plans the catalogue sync (against the local D1, or the deployed one read-only when
 * CLOUDFLARE_API_TOKEN is set) and runs `wrangler deploy --dry-run` for real (the bundle and its size).
 *
 *   npm run deploy                       (production: gts-store, D1 "gts", bucket "gts-images")
 *   npm run deploy -- --env staging      (staging: wrangler.toml [env.staging])
 *   npm run deploy -- --dry-run          (prints the plan; needs no account)
 *
 * First time: `npx wrangler login` (or CLOUDFLARE_API_TOKEN), then set the secrets it names.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { productionProblems } from './deploy-checks.ts';
import { type D1Catalogue, describeSync, planCatalogueSync, readD1Catalogue, syncSql } from './catalogue/sync.ts';
import { readCatalogueFromDisk } from './catalogue-files.ts';
import { runFile, type Target } from './db/d1.ts';
import { describeSize, describeStartup, workerSize, workerStartup } from './worker-size.ts';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const envAt = args.indexOf('--env');
const env = envAt === -1 ? undefined : args[envAt + 1];
if (env !== undefined && env !== 'staging') {
  console.error('Usage: npm run deploy -- [--env staging] [--dry-run]');
  process.exit(2);
}

/** What each environment is called on Cloudflare (wrangler.toml and its [env.staging]). */
const TARGET =
  env === 'staging'
    ? { worker: 'gts-store-staging', database: 'gts-staging', bucket: 'gts-images-staging', buildDir: 'dist-staging' }
    : { worker: 'gts-store', database: 'gts', bucket: 'gts-images', buildDir: 'dist' };
const REQUIRED_SECRETS = ['AUTH_SECRET'];
const OPTIONAL_SECRETS: Record<string, string> = {
  PAYSTACK_SECRET_KEY: 'orders pay into the shared account and an admin confirms each transfer',
  EMAIL_API_KEY: 'e-mails stay in the outbox (held), none is sent',
  AUTH_GOOGLE_SECRET: 'the login page says Google sign-in is not available',
};
const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;
const toolEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };

let step = 0;
const say = (text: string) => console.log(`\n${++step}. ${text}`);
const plan = (command: readonly string[]) => console.log(`   ${dryRun ? 'would run' : 'running'}: wrangler ${command.join(' ')}`);

/** Runs wrangler (answers its standard output), or in a dry run only says what it would run. */
function wrangler(command: readonly string[], { capture = false, always = false } = {}): string {
  plan(command);
  if (dryRun && !always) return '';
  return (
    execFileSync(WRANGLER[0], [WRANGLER[1], ...command], {
      env: toolEnv,
      stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    })?.toString() ?? ''
  );
}

console.log(`Deploying ${TARGET.worker}${dryRun ? ' (dry run: nothing on Cloudflare changes)' : ''}`);

say(`Build into ${TARGET.buildDir}/`);
execFileSync('npm', ['run', '--silent', 'build'], {
  env: { ...toolEnv, BUILD_DIR: TARGET.buildDir, ...(env ? { CLOUDFLARE_ENV: env } : {}) },
  stdio: 'inherit',
});
const configFile = `${TARGET.buildDir}/server/wrangler.json`;

say('Settings that must not reach production');
const vars = (JSON.parse(readFileSync(configFile, 'utf8')) as { vars?: Record<string, unknown> }).vars ?? {};
const problems = productionProblems(vars);
for (const problem of problems) console.log(`   ${problem}`);
if (!problems.length) console.log(`   none: SITE_URL is ${String(vars.SITE_URL)}, no local-only flag is on`);
else if (dryRun) console.log('   (a real run stops here)');
else {
  console.error('\nStopped before anything changed on Cloudflare: fix the settings above (scripts/deploy-checks.ts).');
  process.exit(1);
}

say(`The D1 database "${TARGET.database}": find it, or create it`);
let databaseId = process.env.D1_DATABASE_ID ?? '';
if (!databaseId) {
  const listed = wrangler(['d1', 'list', '--json'], { capture: true });
  const found = dryRun
    ? undefined
    : (JSON.parse(listed) as { name: string; uuid: string }[]).find((d) => d.name === TARGET.database);
  if (found) databaseId = found.uuid;
  else {
    const created = wrangler(['d1', 'create', TARGET.database], { capture: true });
    databaseId = /"?database_id"?\s*[=:]\s*"([0-9a-f-]{36})"/.exec(created)?.[1] ?? '';
    if (!dryRun && !databaseId) throw new Error(`Could not read the new database's id from:\n${created}`);
  }
}
console.log(`   database id: ${databaseId || '(the one found or created)'}, written into ${configFile}`);
if (databaseId) {
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { d1_databases: { database_id: string }[] };
  for (const d1 of config.d1_databases) d1.database_id = databaseId;
  writeFileSync(configFile, JSON.stringify(config));
}

say(`The R2 bucket "${TARGET.bucket}" for images: find it, or create it`);
const buckets = wrangler(['r2', 'bucket', 'list'], { capture: true });
if (!dryRun && !buckets.includes(TARGET.bucket)) wrangler(['r2', 'bucket', 'create', TARGET.bucket]);
else if (dryRun) plan(['r2', 'bucket', 'create', TARGET.bucket, '(only if it is not listed)']);

say('Secrets');
const setSecrets = dryRun
  ? []
  : (
      JSON.parse(wrangler(['secret', 'list', '--format', 'json', '--name', TARGET.worker], { capture: true }) || '[]') as {
        name: string;
      }[]
    ).map((s) => s.name);
if (dryRun) plan(['secret', 'list', '--format', 'json', '--name', TARGET.worker]);
const missing = REQUIRED_SECRETS.filter((s) => !setSecrets.includes(s));
for (const name of REQUIRED_SECRETS)
  console.log(`   required ${name}: ${dryRun ? 'checked on a real run' : setSecrets.includes(name) ? 'set' : 'MISSING'}`);
for (const [name, without] of Object.entries(OPTIONAL_SECRETS)) {
  console.log(
    `   optional ${name}: ${dryRun ? 'checked on a real run' : setSecrets.includes(name) ? 'set' : `not set, so ${without}`}`,
  );
}
if (!dryRun && missing.length) {
  console.error(
    `\nStopped before anything changed: set ${missing.join(', ')} first, e.g. \`npx wrangler secret put ${missing[0]} --name ${TARGET.worker}\`.`,
  );
  process.exit(1);
}

say(`Migrations: apply what the remote D1 lacks, before the new Worker goes live`);
const migrations = readdirSync('migrations').filter((f) => f.endsWith('.sql'));
console.log(`   ${migrations.length} in migrations/ (newest ${migrations.at(-1)}); D1 applies only those it has not recorded`);
// The build's config is already the environment's (CLOUDFLARE_ENV at build time).
wrangler(['d1', 'migrations', 'apply', TARGET.database, '--remote', '--config', configFile]);

say("Catalogue: bring the data files' changes into D1, field by field");
// scripts/catalogue/sync.ts: new products added, fields changed in the files since the last
// deploy applied unless an admin changed the same field (then listed as a conflict, not applied).
const products = readCatalogueFromDisk();
const remote: Target = { remote: true, persistDir: '', config: configFile };
const local: Target = { remote: false, persistDir: process.env.D1_PERSIST_DIR ?? '.wrangler/state' };
// A dry run has no account to read the deployed D1 with, unless CLOUDFLARE_API_TOKEN is set
// (it only reads): it plans against the local D1 instead, and says so.
const readFrom = !dryRun || process.env.CLOUDFLARE_API_TOKEN ? remote : local;
let d1: D1Catalogue;
try {
  d1 = readD1Catalogue(readFrom);
} catch (error) {
  if (!dryRun || readFrom.remote) throw error;
  d1 = { products: new Map(), synced: new Map() };
  console.log(`   (the local D1 at ${local.persistDir} could not be read: planned as for a new database)`);
}
if (readFrom === local)
  console.log(`   planned against the local D1 at ${local.persistDir} (a dry run does not reach Cloudflare)`);
const sync = planCatalogueSync(products, d1);
console.log(`   ${products.length} products in src/data/products/`);
for (const line of describeSync(sync, { dryRun })) console.log(line);
const syncFile = `${TARGET.buildDir}/catalogue-sync.sql`;
writeFileSync(syncFile, syncSql(sync).join('\n'));
plan(['d1', 'execute', TARGET.database, '--remote', '--config', configFile, '--file', syncFile]);
if (!dryRun) runFile(remote, syncFile);

say('Upload size, startup time, and deploy');
const size = workerSize(TARGET.buildDir);
console.log(`   ${size.pass ? 'PASS' : 'MISS'} ${describeSize(size)}`);
const startup = workerStartup(TARGET.buildDir);
console.log(`   ${startup.pass ? 'PASS' : 'MISS'} ${describeStartup(startup)}`);
if (!size.pass || !startup.pass) {
  console.error('\nStopped: the Worker is over its size or startup budget (scripts/worker-size.ts).');
  process.exit(1);
}
wrangler(['deploy', '--config', configFile]);

console.log(dryRun ? '\nDry run done: nothing was changed on Cloudflare.' : `\n${TARGET.worker} is live.`);
