import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { querySql, runSql, workerServer } from './d1.ts';
import { navigationsWaitForScripts } from './islands.ts';

/**
 * The browser tests' `test` and `expect`: every spec imports them from here, not from
 * @playwright/test, so that every test
 * - runs against its worker's own server and D1 (playwright.config.ts, d1.ts);
 * - fails if the page broke the Content Security Policy (a blocked inline script,
 *   style, image or request), which would otherwise only show as a quietly broken page;
 * - can change D1 through `db` and have the change undone after it, pass or fail;
 * - with JavaScript, finds a page it navigates to ready for a shopper's hand: `goto` (and reload,
 *   back, forward) waits for the page's scripts, which start after its first paint (islands.ts).
 */
export { expect };

/** A runtime change a test makes to the catalogue in D1 (as an admin's edit would, straight in D1: the admin screens have their own specs). */
export interface TestDb {
  /** Sets a product's price (kobo) and/or stock; the values D1 had before come back after the test. */
  setProduct(id: string, values: { priceKobo?: number; stock?: number }): void;
  /** Sets one variant's price (kobo) and/or stock (`product_variants`); the values D1 had before come back after the test. */
  setVariant(productId: string, variantId: string, values: { priceKobo?: number; stock?: number }): void;
  /** Inserts a product (as one added after the build), with its variants if it has any; it is deleted after the test. */
  insertProduct(product: NewProduct): void;
  /** A product's stock as D1 has it now. */
  stockOf(id: string): number;
  /** The rows a SELECT returns (for checking what the Worker stored); other statements run too. */
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
  /** Variant labels: each sells at `priceKobo`, the stock shared out between them (the first ones get the remainder). */
  variants?: string[];
  stock: number;
}

interface Fixtures {
  db: TestDb;
  /** Collects CSP violations from every page of the test's browser context (automatic). */
  cspViolations: string[];
}

interface WorkerFixtures {
  /** Waits until this worker's server answers (scripts/serve.ts starts them all at once; Playwright waits for the first). */
  serverReady: undefined;
}

const sql = (value: string) => `'${value.replaceAll("'", "''")}'`;
const int = (value: number) => String(Math.trunc(value));

export const test = base.extend<Fixtures, WorkerFixtures>({
  serverReady: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const { baseURL } = workerServer();
      const deadline = Date.now() + 120_000;
      for (;;) {
        const up = await fetch(`${baseURL}/api/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (up) break;
        if (Date.now() > deadline) throw new Error(`The test server at ${baseURL} did not start`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await use(undefined);
    },
    { scope: 'worker', auto: true, timeout: 130_000 },
  ],

  context: async ({ context, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) navigationsWaitForScripts(context);
    await use(context);
  },

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
  db: async ({}, use) => {
    // SQL that undoes the test's changes, in the order they were made. Each call takes
    // milliseconds: it goes to the worker's own server (d1.ts).
    const undo: string[] = [];
    const saved = new Set<string>();
    /** Updates one row's price_kobo and/or stock, first remembering (once per row) what they were. */
    const setPriceAndStock = (table: string, where: string, { priceKobo, stock }: { priceKobo?: number; stock?: number }) => {
      const sets = [
        ...(priceKobo === undefined ? [] : [`price_kobo = ${int(priceKobo)}`]),
        ...(stock === undefined ? [] : [`stock = ${int(stock)}`]),
      ];
      if (!sets.length) return;
      if (!saved.has(`${table} ${where}`)) {
        const [before] = querySql<{ price_kobo: number; stock: number }>(`select price_kobo, stock from ${table} where ${where}`);
        if (!before) throw new Error(`No row in ${table} where ${where}`);
        saved.add(`${table} ${where}`);
        undo.push(`update ${table} set price_kobo = ${before.price_kobo}, stock = ${before.stock} where ${where}`);
      }
      runSql(`update ${table} set ${sets.join(', ')} where ${where}`);
    };
    const db: TestDb = {
      setProduct: (id, values) => setPriceAndStock('products', `id = ${sql(id)}`, values),
      setVariant: (productId, variantId, values) =>
        setPriceAndStock('product_variants', `product_id = ${sql(productId)} and id = ${sql(variantId)}`, values),
      insertProduct(p) {
        const labels = p.variants ?? [];
        // Variants live in product_variants once that migration is in; before, in products.variants (JSON).
        const columns = new Set(querySql<{ name: string }>(`select name from pragma_table_info('products')`).map((c) => c.name));
        const variantRows = !columns.has('variants') && columns.has('variant_label');
        undo.push(`delete from products where id = ${sql(p.id)}`);
        if (variantRows) undo.push(`delete from product_variants where product_id = ${sql(p.id)}`);
        const values: Record<string, string> = {
          id: sql(p.id),
          name: sql(p.name),
          brand: sql(p.brand),
          category: sql(p.category),
          description: sql(p.description),
          price_kobo: int(p.priceKobo),
          image: sql(p.image),
          stock: int(p.stock),
          rating: '0',
          reviews: '0',
          featured: '0',
          ...(variantRows ? { variant_label: sql(labels.length ? 'Option' : '') } : { variants: sql(JSON.stringify(labels)) }),
        };
        const statements = [
          `insert into products (${Object.keys(values).join(', ')}) values (${Object.values(values).join(', ')})`,
        ];
        if (variantRows) {
          labels.forEach((label, position) => {
            const stock = Math.trunc(p.stock / labels.length) + (position < p.stock % labels.length ? 1 : 0);
            statements.push(`insert into product_variants (product_id, id, label, price_kobo, stock, position)
              values (${sql(p.id)}, ${sql(variantId(label))}, ${sql(label)}, ${int(p.priceKobo)}, ${stock}, ${position})`);
          });
        }
        runSql(statements);
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
      // Newest first, in one batch (all or nothing); a failure here fails the test.
      if (undo.length) runSql(undo.reverse());
    }
  },
});

/** The themes the axe tests look at each page in. */
export type Theme = 'dark' | 'light';

/**
 * The axe rules about colour. A theme changes nothing else (global.css's colour tokens under
 * `html.dark`; the header swaps its sun and moon icons, both aria-hidden, and its toggle's
 * wording), so the structural rules give the same answer in both: they run in dark, the
 * default theme, and light runs these alone. (`color-contrast-enhanced`, AAA, is off by default.)
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * An AxeBuilder for the page in `theme` (dark, the default theme, when the test sets none):
 * every rule in dark, the colour rules in light (COLOUR_RULES).
 *
 * A page without frames is analysed in axe's legacy mode: axe.run in the page itself, the
 * same rules and results, without the blank page the default mode opens in the context (and
 * injects axe into) on every analyze() to merge frames' results: about a second each time.
 */
export function axe(page: Page, theme: Theme = 'dark'): AxeBuilder {
  const builder = new AxeBuilder({ page });
  if (page.frames().length === 1) builder.setLegacyMode(true);
  return theme === 'dark' ? builder : builder.withRules(COLOUR_RULES);
}

/** axe's violations on the page (see `axe`), one line each, rule and elements: `toEqual([])` shows them all. */
export async function axeViolations(page: Page, theme: Theme = 'dark', prefix = ''): Promise<string[]> {
  const results = await axe(page, theme).analyze();
  return results.violations.map((v) => `${prefix}${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A variant's id from its label, as the catalogue makes them (variantIdFromLabel). */
const variantId = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

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
