import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The built Worker (BUILD_DIR/server, as `astro build` left it; `npm test` builds before Playwright) holds
 * no build-time catalogue: not catalogue.build.ts (its glob over the data files), not the products' data,
 * not the validator. The on-demand pages render the header and footer, so whatever those import is
 * bundled into, and run in, every Worker that renders a page (docs/decisions/008-runtime-boundaries.md).
 * Needs no browser and no server: it reads the built files.
 */

const dataDir = join(import.meta.dirname, '../../src/data/products');
const products = readdirSync(dataDir)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => JSON.parse(readFileSync(join(dataDir, f), 'utf8')) as { id: string; description: string }[]);

/** Every module of the built Worker, its code as text (source maps left out: they are not run). */
function workerSources(): { file: string; code: string }[] {
  const server = join(process.env.BUILD_DIR ?? 'dist', 'server');
  return readdirSync(server, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mjs') || f.endsWith('.js'))
    .map((file) => ({ file, code: readFileSync(join(server, file), 'utf8') }));
}

test.describe('the Worker bundle', () => {
  const sources = workerSources();

  test('is there to check', () => {
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.some((s) => s.file === 'entry.mjs')).toBe(true);
    expect(products.length).toBeGreaterThan(0);
  });

  test('holds none of the products from the data files', () => {
    for (const { file, code } of sources) {
      for (const p of products) {
        expect(code.includes(p.description), `${file} holds the description of ${p.id}`).toBe(false);
        expect(code.includes(`"${p.id}"`) || code.includes(`'${p.id}'`), `${file} holds the id ${p.id}`).toBe(false);
      }
    }
  });

  test('holds neither catalogue.build.ts nor the catalogue validator', () => {
    for (const { file, code } of sources) {
      // catalogue.build.ts's import.meta.glob, as Vite compiles it: the data files by path.
      expect(code, `${file} globs the data files`).not.toMatch(/["']\/src\/data\/products\/[\w-]+\.json["']/);
      expect(code, `${file} holds featuredProducts()`).not.toMatch(/\bfunction featuredProducts\b/);
      expect(code, `${file} holds validateCatalogue()`).not.toMatch(/\bfunction validateCatalogue\b/);
      expect(code, `${file} holds the validator's messages`).not.toContain('A catalogue file must hold a JSON list of products');
    }
  });
});
