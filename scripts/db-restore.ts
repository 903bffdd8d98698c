/**
 * `npm run db:restore -- <backup.sql> [--to <dir>]`: loads a backup (npm run db:backup) into a
 * fresh local D1 in <dir> (default .wrangler/restored-<time>), migrated first; to serve it, stop
 * `npm start` and move <dir> to .wrangler/state. A restore never writes to the deployed
 * database: for production, use D1 Time Travel (README, Backups).
 */
import { existsSync } from 'node:fs';
import { restore } from './db/backup.ts';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const toAt = args.indexOf('--to');
const dir = toAt === -1 ? `.wrangler/restored-${Date.now()}` : args[toAt + 1]!;
if (!file || !existsSync(file)) {
  console.error('Usage: npm run db:restore -- <backup.sql> [--to <dir>]');
  process.exit(2);
}
if (existsSync(dir)) {
  console.error(`${dir} exists: restore into a new folder (a restore starts from an empty database).`);
  process.exit(2);
}
restore(file, dir);
console.log(`Restored ${file} into ${dir}. To serve it: stop npm start, then move ${dir} to .wrangler/state.`);
