import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The runtime boundaries (docs/decisions/008-runtime-boundaries.md) are biome.json's noRestrictedImports
 * overrides; this proves they hold. Each probe is a one-import module written, under the folder a rule
 * covers, into a scratch copy of the project's biome.json; one `biome lint` run reports which probes it
 * refuses. A forbidden import must be refused by noRestrictedImports, an allowed one must pass, so taking
 * a rule (or a package out of one) out of biome.json fails this test.
 */

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');

/** One module holding one import: where it lives (the rule that covers it) and what it imports. */
interface Probe {
  file: string;
  from: string;
}

const packagesNoReactNoStores = [
  'react',
  'react-dom',
  'react-dom/client',
  'react-hook-form',
  '@hookform/resolvers/zod',
  'nanostores',
  '@nanostores/react',
  '@nanostores/persistent',
  'react-toastify',
  'lucide-react',
];

/** Worker code (functions/** and src/**\/*.server.ts): no browser module, no build-time module. */
const workerForbidden = [
  ...packagesNoReactNoStores,
  '../../src/features/orders/cart.browser.ts',
  '../../src/features/orders/CheckoutSteps.tsx',
  '../../src/features/catalogue/catalogue.build.ts',
];
const workerAllowed = ['hono', 'drizzle-orm', 'zod', '../platform/errors.ts', '../../src/features/catalogue/product.ts'];

/** Pure code (src/**\/*.ts without a suffix): no React, form or store package, no Worker, browser or build module. */
const pureForbidden = [
  ...packagesNoReactNoStores,
  'hono',
  'drizzle-orm',
  './cart.browser.ts',
  './orders.server.ts',
  '../catalogue/catalogue.build.ts',
];
const pureAllowed = ['zod', './money.ts'];

let count = 0;
/** Probes in `folder`, one file each, named with `suffix` (".ts", ".server.ts"). */
const probes = (folder: string, suffix: string, imports: string[]): Probe[] =>
  imports.map((from) => ({ file: `${folder}/probe-${count++}${suffix}`, from }));

const forbidden: Probe[] = [
  ...probes('functions/orders', '.ts', workerForbidden),
  ...probes('functions/platform', '.ts', workerForbidden),
  ...probes('src/features/accounts', '.server.ts', workerForbidden),
  ...probes('src/features/orders', '.ts', pureForbidden),
  ...probes('src/lib', '.ts', pureForbidden),
];
const allowed: Probe[] = [
  ...probes('functions/orders', '.ts', workerAllowed),
  ...probes('src/features/accounts', '.server.ts', workerAllowed),
  ...probes('src/features/orders', '.ts', pureAllowed),
];

let scratch = '';
/** The probe files biome refused by noRestrictedImports (paths relative to the scratch root). */
let refused = new Set<string>();

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'boundaries-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
  config.$schema = undefined;
  config.vcs = { enabled: false };
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
  for (const { file, from } of [...forbidden, ...allowed]) {
    mkdirSync(join(scratch, dirname(file)), { recursive: true });
    writeFileSync(join(scratch, file), `import * as imported from '${from}';\n\nexport const probe = imported;\n`);
  }
  let out: string;
  try {
    out = execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', 'functions', 'src'], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // biome exits 1 when it reports errors; its report is still on stdout.
    out = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as { summary: { unchanged: number }; diagnostics: Diagnostic[] };
  expect(report.summary.unchanged, 'biome linted every probe').toBe(forbidden.length + allowed.length);
  refused = new Set(
    report.diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports').map((d) => d.location.path),
  );
}, 60_000);

interface Diagnostic {
  category: string;
  location: { path: string };
}

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('import boundaries (biome noRestrictedImports)', () => {
  it.each(forbidden)('$file may not import $from', ({ file }) => {
    expect(refused).toContain(file);
  });

  it.each(allowed)('$file may import $from', ({ file }) => {
    expect(refused).not.toContain(file);
  });
});
