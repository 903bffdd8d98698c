import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateCatalogue } from '../src/features/catalogue/validate.ts';
import type { Product } from '../src/features/catalogue/product.ts';

/** Node-side catalogue loading (seed script, build check, unit tests): files and images on disk. */
export const CATALOGUE_DIR = 'src/data/products';

export function readCatalogueFromDisk(root = process.cwd()): Product[] {
  const dir = join(root, CATALOGUE_DIR);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const file = `${CATALOGUE_DIR}/${f}`;
      const text = readFileSync(join(dir, f), 'utf8');
      try {
        return { file, data: JSON.parse(text) as unknown };
      } catch (error) {
        throw new Error(`${file}: not valid JSON: ${(error as Error).message}`);
      }
    });
  return validateCatalogue(files, { imageExists: (path) => existsSync(join(root, 'public', path)) });
}
