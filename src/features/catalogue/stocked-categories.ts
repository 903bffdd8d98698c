import { CATEGORIES, type CategoryId } from './categories.ts';

/**
 * The categories the catalogue's data files (src/data/products) hold products in: the header's and footer's
 * category links. Written out here, not read from catalogue.build.ts, because the header and footer are also
 * rendered by the Worker's on-demand pages, and catalogue.build.ts (every product and the validator) must stay
 * out of the Worker's bundle (tests/e2e/worker-bundle.spec.ts). tests/unit/stocked-categories.test.ts fails when
 * the data files start or stop selling a category, so this list follows them.
 */
export const STOCKED_CATEGORY_IDS: readonly CategoryId[] = [
  'phones',
  'laptops',
  'tvs',
  'consoles',
  'accessories',
  'games',
  'gaming',
];

/** The stocked categories with their labels, in CATEGORIES' order (the order the menus list them in). */
export const STOCKED_CATEGORIES = CATEGORIES.filter((c) => STOCKED_CATEGORY_IDS.includes(c.id));
