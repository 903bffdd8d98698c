/**
 * `npm run db:backup`: a dated SQL backup of the local D1 (.wrangler/state, or D1_PERSIST_DIR)
 * into backups/; `npm run db:backup -- --remote`: of the deployed one (after `wrangler login`).
 * `--out <file>` names the file. See scripts/db/backup.ts and the README's Backups section.
 */
import { backup } from './db/backup.ts';

const args = process.argv.slice(2);
const remote = args.includes('--remote');
const outAt = args.indexOf('--out');
const stamp = new Date()
  .toISOString()
  .replace(/\.\d+Z$/, 'Z')
  .replaceAll(':', '-');
const file = outAt === -1 ? `backups/gts-${remote ? 'remote' : 'local'}-${stamp}.sql` : args[outAt + 1]!;
const counts = backup({ remote, persistDir: process.env.D1_PERSIST_DIR ?? '.wrangler/state' }, file);
const rows = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(`Backed up ${rows} rows of ${Object.keys(counts).length} tables to ${file}`);
