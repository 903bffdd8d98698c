import { validateCatalogue } from './validate.ts';
import type { Product } from './product.ts';

/**
 * The catalogue as the build sees it (build-time only: Vite's import.meta.glob): the marketer's data files, validated. Pages
 * are pre-rendered from it; at runtime D1 (seeded from the same files) is the truth
 * and the islands refresh prices and stock from the API.
 */
const files = import.meta.glob<unknown>('/src/data/products/*.json', { eager: true, import: 'default' });

export const catalogue: readonly Product[] = validateCatalogue(
  Object.entries(files).map(([file, data]) => ({ file: file.replace(/^\//, ''), data })),
);

export function featuredProducts(): Product[] {
  return catalogue.filter((p) => p.featured).sort((a, b) => b.rating - a.rating);
}
