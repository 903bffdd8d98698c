import type { Product } from '../../src/features/catalogue/product.ts';
import { validateCatalogue } from '../../src/features/catalogue/validate.ts';

/**
 * The catalogue data files, loaded and validated the way the build and the seed load them:
 * what each test file's D1 was seeded with (vitest.api.config.ts), so tests can work out
 * the expected answers without the Worker's code.
 */
const files = import.meta.glob<unknown>('/src/data/products/*.json', { eager: true, import: 'default' });

export const catalogue: readonly Product[] = validateCatalogue(
  Object.entries(files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, data]) => ({ file: file.replace(/^\//, ''), data })),
);
