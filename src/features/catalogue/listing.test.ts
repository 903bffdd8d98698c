import { describe, expect, it } from 'vitest';
import {
  correctedSearchHref,
  FORM_MARKER,
  formatNairaText,
  listingHref,
  listingDescription,
  listingTitle,
  MAX_LISTING_PAGES,
  parseNairaText,
  priceRangeProblem,
  readListing,
} from './listing.ts';
import { DEFAULT_QUERY, type ProductQuery } from './search.ts';

describe('readListing: the listing URL as a page reads it', () => {
  it('reads the same parameters as the API, page as the number of pages shown', () => {
    const { query, errors, fromForm } = readListing('category=phones&brand=Apple&sort=price-desc&page=3');
    expect(query).toMatchObject({ category: ['phones'], brand: ['Apple'], sort: 'price-desc', page: 3 });
    expect(errors).toEqual({});
    expect(fromForm).toBe(false);
  });

  it('leaves out what it cannot use, says why at the field, and keeps the rest', () => {
    const { query, errors } = readListing(`category=phones,drinks&q=${'x'.repeat(300)}&sort=cheap`);
    expect(query).toEqual({ ...DEFAULT_QUERY });
    expect(errors.q).toBe('Search text is limited to 100 characters');
    expect(errors.category).toMatch(/^Category: /);
    expect(errors.sort).toMatch(/^Sort: Must be one of/);
    const partly = readListing('category=phones&sort=cheap');
    expect(partly.query.category).toEqual(['phones']);
    expect(partly.errors).toEqual({ sort: expect.any(String) });
  });

  it('explains an inverted price range with both amounts and keeps the boxes as typed, never swapping them', () => {
    const { query, errors, priceText } = readListing('category=tvs&minPrice=500,000&maxPrice=100000');
    expect(query).toMatchObject({ category: ['tvs'], minPrice: DEFAULT_QUERY.minPrice, maxPrice: DEFAULT_QUERY.maxPrice });
    expect(errors.maxPrice).toBe('The max price (₦100,000) is below the min price (₦500,000): raise the max or lower the min.');
    expect(priceText).toEqual({ min: '500,000', max: '100000' });
  });

  it('caps the pages shown', () => {
    expect(readListing('page=500').query.page).toBe(MAX_LISTING_PAGES);
  });

  it('reads the filter form: empty boxes are left out, and a sort left at its default follows the new search', () => {
    const searched = readListing(`q=iphone&minPrice=&maxPrice=5,000,000&sort=name&${FORM_MARKER}=`);
    expect(searched.fromForm).toBe(true);
    expect(searched.query.sort).toBe('relevance');
    expect(listingHref(searched.query)).toBe('/products?q=iphone');
    // A sort the shopper chose is kept.
    expect(readListing(`q=iphone&sort=price-asc&${FORM_MARKER}=`).query.sort).toBe('price-asc');
    // Leaving the search: best match was the default, so the order goes back to by name.
    expect(readListing(`q=&sort=relevance&${FORM_MARKER}=iphone`).query.sort).toBe('name');
  });
});

describe('listingHref', () => {
  it('is the short URL: defaults left out, page only past the first', () => {
    expect(listingHref(DEFAULT_QUERY)).toBe('/products');
    expect(listingHref({ ...DEFAULT_QUERY, category: ['phones'], page: 2 })).toBe('/products?category=phones&page=2');
  });
});

describe('correctedSearchHref', () => {
  it('replaces only the search text, from the first page, keeping the other filters', () => {
    const query = readListing('q=ipxxne&category=phones&brand=Apple&maxPrice=2000000&page=3').query;
    expect(correctedSearchHref(query, 'iphone')).toBe('/products?q=iphone&category=phones&brand=Apple&maxPrice=2000000');
  });

  it('keeps a sort the shopper chose, and lets a default sort follow the new search', () => {
    expect(correctedSearchHref(readListing('q=ipxxne&sort=price-asc').query, 'iphone')).toBe('/products?q=iphone&sort=price-asc');
    expect(correctedSearchHref(readListing('q=ipxxne').query, 'iphone')).toBe('/products?q=iphone');
  });
});

describe('price boxes', () => {
  it('show whole naira with thousands separators and read them back', () => {
    expect(formatNairaText(1_500_000)).toBe('1,500,000');
    expect(formatNairaText(999)).toBe('999');
    expect(parseNairaText('₦1,500,000')).toEqual({ ok: true, naira: 1_500_000 });
    expect(parseNairaText('  ')).toEqual({ ok: true, naira: null });
    expect(parseNairaText('12.5')).toMatchObject({ ok: false });
    expect(parseNairaText('200,000,000')).toMatchObject({ ok: false });
  });

  it('say when the max is below the min', () => {
    expect(priceRangeProblem(100, 100)).toBeUndefined();
    expect(priceRangeProblem(500_000, 100_000)).toMatch(/₦100,000.*₦500,000/);
  });
});

describe('listingTitle', () => {
  const q = (over: Partial<Pick<ProductQuery, 'q' | 'category' | 'brand'>>) => ({
    q: '',
    category: [] as ProductQuery['category'],
    brand: [] as ProductQuery['brand'],
    ...over,
  });
  it('titles a listing by what it shows', () => {
    expect(listingTitle(q({}))).toBe('All products');
    expect(listingTitle(q({ category: ['laptops'] }))).toBe('Laptops');
    expect(listingTitle(q({ category: ['games'] }))).toBe('Video Games');
    expect(listingTitle(q({ brand: ['Apple'] }))).toBe('Apple products');
    expect(listingTitle(q({ category: ['phones'], brand: ['Samsung'] }))).toBe('Samsung Phones');
    expect(listingTitle(q({ q: ' iphone ', category: ['phones'] }))).toBe('Search: iphone');
    // Wider than one category or one brand: all products.
    expect(listingTitle(q({ category: ['phones', 'tvs'] }))).toBe('All products');
    expect(listingTitle(q({ brand: ['Apple', 'Samsung'] }))).toBe('All products');
  });

  it('gives each category, brand and search listing a description of its own', () => {
    const queries = [
      q({}),
      q({ category: ['laptops'] }),
      q({ category: ['games'] }),
      q({ brand: ['Apple'] }),
      q({ category: ['phones'], brand: ['Samsung'] }),
      q({ q: ' iphone ' }),
    ];
    const descriptions = queries.map(listingDescription);
    expect(new Set(descriptions).size).toBe(queries.length);
    expect(descriptions[1]).toBe('Shop laptops at GTS, priced in naira and paid by bank transfer. Filter by brand and price.');
    expect(descriptions[4]).toBe('Shop Samsung phones at GTS, priced in naira and paid by bank transfer. Filter by price.');
    expect(descriptions[5]).toContain('matching "iphone"');
    // Wider than one category or one brand: the store's own line.
    expect(listingDescription(q({ category: ['phones', 'tvs'] }))).toBe(descriptions[0]);
    for (const description of descriptions) expect(description.length).toBeLessThanOrEqual(160);
  });
});
