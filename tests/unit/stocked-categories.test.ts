import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/features/catalogue/catalogue.build.ts';
import { STOCKED_CATEGORY_IDS } from '../../src/features/catalogue/stocked-categories.ts';

/** The header's and footer's category links (stocked-categories.ts) are the categories the data files sell. */
describe('stocked categories', () => {
  it('are exactly the categories the catalogue data files hold products in', () => {
    const sold = new Set(catalogue.map((p) => p.category));
    expect(catalogue.length).toBeGreaterThan(0);
    expect(new Set(STOCKED_CATEGORY_IDS)).toEqual(sold);
    expect(STOCKED_CATEGORY_IDS).toHaveLength(sold.size);
  });
});
