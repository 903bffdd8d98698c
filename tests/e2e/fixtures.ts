import { test as base, expect, type BrowserContext } from '@playwright/test';
import { querySql, runSql } from './d1.ts';

/**
 * The browser tests' `test` and `expect`: every spec imports them from here, not from
 * @playwright/test, so that every test
 * - fails if the page broke the Content Security Policy (a blocked inline script,
 *   style, image or request), which would otherwise only show as a quietly broken page;
 * - can change D1 through `db` and have the change undone after it, pass or fail.
 */
export { expect };

/** A runtime change a test makes to the catalogue in D1 (an admin's edit, until the admin screens exist). */
export interface TestDb {
  /** Sets a product's price (kobo) and/or stock; the values D1 had before come back after the test. */
  setProduct(id: string, values: { priceKobo?: number; stock?: number }): void;
  /** Inserts a product (as one added after the build); it is deleted after the test. */
  insertProduct(product: NewProduct): void;
  /** A product's stock as D1 has it now. */
  stockOf(id: string): number;
  /** The rows a SELECT returns (for checking what the Worker stored). */
  query<Row = Record<string, unknown>>(sql: string): Row[];
}

export interface NewProduct {
  id: string;
  name: string;
  brand: string;
  category: string;
  description: string;
  priceKobo: number;
  image: string;
  variants?: string[];
  stock: number;
}

interface Fixtures {
  db: TestDb;
  /** Collects CSP violations from every page of the test's browser context (automatic). */
  cspViolations: string[];
}

export const test = base.extend<Fixtures>({
  cspViolations: [
    async ({ context }, use, testInfo) => {
      const violations: string[] = [];
      await watchCsp(context, violations);
      await use(violations);
      // Reports sent while the last page was closing may still be on their way.
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (violations.length) {
        await testInfo.attach('csp-violations', { body: violations.join('\n'), contentType: 'text/plain' });
      }
      expect(violations, 'Content Security Policy violations during the test').toEqual([]);
    },
    { auto: true },
  ],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  db: async ({}, use, testInfo) => {
    // Each D1 call starts wrangler, which takes seconds on a busy machine.
    testInfo.setTimeout(testInfo.timeout + 30_000);
    // SQL that undoes the test's changes, in the order they were made.
    const undo: string[] = [];
    const saved = new Set<string>();
    const sql = (value: string) => `'${value.replaceAll("'", "''")}'`;
    const db: TestDb = {
      setProduct(id, { priceKobo, stock }) {
        const sets = [
          ...(priceKobo === undefined ? [] : [`price_kobo = ${Math.trunc(priceKobo)}`]),
          ...(stock === undefined ? [] : [`stock = ${Math.trunc(stock)}`]),
        ];
        if (!sets.length) return;
        const update = `update products set ${sets.join(', ')} where id = ${sql(id)}`;
        if (saved.has(id)) return runSql(update);
        // One wrangler call (each takes seconds): the row as it was, then the change.
        const [before] = querySql<{ price_kobo: number; stock: number }>(
          `select price_kobo, stock from products where id = ${sql(id)}; ${update}`,
        );
        if (!before) throw new Error(`No product ${id} in D1`);
        saved.add(id);
        undo.push(`update products set price_kobo = ${before.price_kobo}, stock = ${before.stock} where id = ${sql(id)}`);
      },
      insertProduct(p) {
        undo.push(`delete from products where id = ${sql(p.id)}`);
        runSql(`insert into products (id, name, brand, category, description, price_kobo, image, variants, stock, rating, reviews, featured)
          values (${[p.id, p.name, p.brand, p.category, p.description].map(sql).join(', ')}, ${Math.trunc(p.priceKobo)},
            ${sql(p.image)}, ${sql(JSON.stringify(p.variants ?? []))}, ${Math.trunc(p.stock)}, 0, 0, 0)`);
      },
      stockOf(id) {
        const [row] = querySql<{ stock: number }>(`select stock from products where id = ${sql(id)}`);
        if (!row) throw new Error(`No product ${id} in D1`);
        return row.stock;
      },
      query: (statement) => querySql(statement),
    };
    try {
      await use(db);
    } finally {
      // Newest first, in one call; a failure here fails the test.
      if (undo.length) runSql(undo.reverse().join('; '));
    }
  },
});

/**
 * Records CSP violations in every page of the context, from the first script on: the
 * `securitypolicyviolation` event each document fires, and Chromium's console errors
 * about the policy (also for what happens before a listener could run).
 */
async function watchCsp(context: BrowserContext, violations: string[]) {
  await context.exposeBinding('__reportCspViolation', ({ page }, report: string) => {
    violations.push(`${page?.url() ?? '?'}: ${report}`);
  });
  await context.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}${e.sample ? ` "${e.sample}"` : ''} at ${e.sourceFile}:${e.lineNumber}`;
        (window as unknown as { __reportCspViolation(r: string): void }).__reportCspViolation(report);
      },
      true,
    );
  });
  context.on('console', (message) => {
    if (
      /Content[- ]Security[- ]Policy|Permissions[- ]Policy/i.test(message.text()) &&
      ['error', 'warning'].includes(message.type())
    ) {
      violations.push(`${message.page()?.url() ?? '?'}: console ${message.type()}: ${message.text()}`);
    }
  });
}
