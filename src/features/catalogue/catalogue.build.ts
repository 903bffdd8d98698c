import synonymsFile from '../../data/search/synonyms.json';
import { SYNONYMS_FILE, validateSynonyms } from './synonyms.ts';
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

// The search's synonyms (src/data/search/synonyms.json) are the marketers' file too: a mistake
// fails `astro build` with the file, the group and the problem named, before the Worker loads it.
validateSynonyms(SYNONYMS_FILE, synonymsFile);

export function featuredProducts(): Product[] {
  return catalogue.filter((p) => p.featured).sort((a, b) => b.rating - a.rating);
}
