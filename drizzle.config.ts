import { defineConfig } from 'drizzle-kit';

// Migrations are generated from functions/platform/schema.ts (`npm run db:generate`) and
// applied by wrangler (`npm run db:migrate`); they only ever go forward.
export default defineConfig({
  dialect: 'sqlite',
  schema: './functions/platform/schema.ts',
  out: './migrations',
});
