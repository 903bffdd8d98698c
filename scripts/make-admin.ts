/**
 * Makes an existing user an admin (users.role = 'admin'), in the local D1 or, with
 * --remote, in the production database:
 *
 *   npm run user:admin -- someone@example.com            # local (.wrangler/state)
 *   npm run user:admin -- someone@example.com --remote   # the deployed D1 (wrangler login first)
 *   npm run user:admin -- someone@example.com --revoke   # back to customer
 *
 * The user signs up first (or signs in with Google); their next request sees the new role.
 * No API can change a role: this command (or SQL on the database) is the only way.
 */
import { execFileSync } from 'node:child_process';

const WRANGLER = [process.execPath, 'node_modules/wrangler/bin/wrangler.js'] as const;

const args = process.argv.slice(2);
const email = args
  .find((a) => !a.startsWith('--'))
  ?.trim()
  .toLowerCase();
const remote = args.includes('--remote');
const role = args.includes('--revoke') ? 'customer' : 'admin';
if (!email || !/^[^\s@']+@[^\s@']+\.[^\s@']+$/.test(email)) {
  console.error('Usage: npm run user:admin -- <email> [--remote] [--revoke]');
  process.exit(2);
}

const command = `UPDATE users SET role = '${role}', updated_at = unixepoch() WHERE email = '${email}' RETURNING id, email, role;`;
const where = remote ? ['--remote'] : ['--local', '--persist-to', process.env.D1_PERSIST_DIR ?? '.wrangler/state'];
const output = execFileSync(
  WRANGLER[0],
  [WRANGLER[1], 'd1', 'execute', 'DB', ...where, '--config', 'wrangler.toml', '--json', '--command', command],
  {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  },
);
const rows = (JSON.parse(output) as { results: { email: string; role: string }[] }[]).flatMap((r) => r.results);
if (!rows.length) {
  console.error(`No user with the e-mail ${email} in the ${remote ? 'remote' : 'local'} database: they must sign up first.`);
  process.exit(1);
}
console.log(`${email} is now ${role === 'admin' ? 'an admin' : 'a customer'} (${remote ? 'remote' : 'local'} database).`);
