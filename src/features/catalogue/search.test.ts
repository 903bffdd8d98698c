import { describe, expect, it } from 'vitest';
import type { Product } from './product.ts';
import {
  compareNames,
  DEFAULT_QUERY,
  defaultSort,
  matchTier,
  PAGE_SIZE,
  parseProductQuery,
  productQueryToParams,
  searchTerms,
  SEARCH_MAX_LENGTH,
  searchWords,
  type ProductQuery,
} from './search.ts';
import { searchProducts } from '../../../tests/api/search-reference.ts';

function product(id: string, over: Partial<Product> = {}): Product {
  return {
    id,
    name: id,
    brand: 'Samsung',
    category: 'phones',
    description: 'A phone with a big screen and a long-lasting battery.',
    price: 10_000_000,
    image: `/images/products/${id}.svg`,
    variantLabel: '',
    variants: [],
    stock: 5,
    inStock: true,
    rating: 4,
    reviews: 10,
    featured: false,
    ...over,
  };
}

const shelf = [
  product('Galaxy A15', { price: 25_000_000, rating: 4.1 }),
  product('iPhone 16', { brand: 'Apple', price: 180_000_000, rating: 4.8, reviews: 900 }),
  product('Spark 30', { brand: 'Tecno', price: 21_000_000, rating: 4.1, reviews: 50 }),
  product('PS5 Slim', { brand: 'Sony', category: 'consoles', price: 85_000_000, rating: 4.9, featured: true }),
  product('ThinkPad E14', {
    brand: 'Lenovo',
    category: 'laptops',
    price: 120_000_000,
    description: 'Business laptop with Intel Core i5.',
  }),
];

const search = (q: Partial<ProductQuery>) => searchProducts(shelf, { ...DEFAULT_QUERY, ...q });
const ids = (q: Partial<ProductQuery>) => search(q).items.map((p) => p.id);

describe('searchProducts', () => {
  it('sorts by name A-Z by default', () => {
    expect(ids({})).toEqual(['Galaxy A15', 'iPhone 16', 'PS5 Slim', 'Spark 30', 'ThinkPad E14']);
  });

  it('sorts by price both ways and by rating (reviews break ties)', () => {
    expect(ids({ sort: 'price-asc' })[0]).toBe('Spark 30');
    expect(ids({ sort: 'price-desc' })[0]).toBe('iPhone 16');
    expect(ids({ sort: 'rating' })).toEqual(['PS5 Slim', 'iPhone 16', 'Spark 30', 'Galaxy A15', 'ThinkPad E14']);
  });

  it('filters by category, brand, price range (naira) and featured', () => {
    expect(ids({ category: ['consoles', 'laptops'] })).toEqual(['PS5 Slim', 'ThinkPad E14']);
    expect(ids({ brand: ['Apple', 'Tecno'] })).toEqual(['iPhone 16', 'Spark 30']);
    expect(ids({ minPrice: 210_000, maxPrice: 250_000 })).toEqual(['Galaxy A15', 'Spark 30']);
    expect(ids({ featured: true })).toEqual(['PS5 Slim']);
  });

  it('matches every search word as the start of a word of the name, brand or description', () => {
    expect(ids({ q: 'intel laptop' })).toEqual(['ThinkPad E14']);
    expect(ids({ q: 'apple' })).toEqual(['iPhone 16']);
    expect(ids({ q: 'iph' })).toEqual(['iPhone 16']);
    expect(ids({ q: 'busi LAP' })).toEqual(['ThinkPad E14']);
    // Inside a word is not a match. A category's own words find the category (src/data/search/synonyms.json).
    expect(ids({ q: 'creen' })).toEqual([]);
    expect(ids({ q: 'laptops' })).toEqual(['ThinkPad E14']);
    expect(ids({ q: 'video games' })).toEqual([]);
  });

  it('treats search text as words only: punctuation and FTS syntax are separators', () => {
    expect(searchWords('Ghost of Yōtei: "USB-C" (iPhone 17) NEAR/3 name:x*')).toEqual([
      'ghost',
      'of',
      'yotei',
      'usb',
      'c',
      'iphone',
      '17',
      'near',
      '3',
      'name',
      'x',
    ]);
    expect(searchTerms('iph IPH 📱 !!!')).toEqual(['iph']);
    // A size in inches is its number, as the TVs' names write it (65").
    expect(searchTerms('65 inch tv')).toEqual(['65"', 'tv']);
    expect(searchTerms('65-inch TV')).toEqual(['65"', 'tv']);
    expect(searchTerms('55inches')).toEqual(['55"']);
    expect(searchTerms('43 in smart tv')).toEqual(['43"', 'smart', 'tv']);
    expect(searchTerms('LG 65" OLED')).toEqual(['lg', '65"', 'oled']);
    expect(searchTerms('65″ tv')).toEqual(['65"', 'tv']);
    expect(searchTerms('6.3-inch')).toEqual(['6', '3"']);
    // A quote after anything but a number marks nothing.
    expect(searchTerms('sams"ung "iphone')).toEqual(['sams', 'ung', 'iphone']);
    expect(searchTerms('65w charger')).toEqual(['65w', 'charger']);
    expect(searchTerms('in ear headphones')).toEqual(['in', 'ear', 'headphones']);
    expect(searchTerms('inch')).toEqual(['inch']);
    // No words at all: no text filter.
    expect(search({ q: '"*)(' }).total).toBe(shelf.length);
    expect(defaultSort('"*)(')).toBe('name');
  });

  it('ranks by relevance when there is search text: name matches, then brand, then description; ties by name', () => {
    const ranked = [
      product('Galaxy Buds', { brand: 'Samsung', category: 'audio', description: 'Earbuds for your Samsung phone.' }),
      product('Phone Stand', { brand: 'Anker', category: 'accessories', description: 'Holds a Samsung Galaxy or an iPhone.' }),
      product('Galaxy S25', { brand: 'Samsung' }),
      product('Watch 7', { brand: 'Samsung', category: 'wearables', description: 'Pairs with a Galaxy phone.' }),
    ];
    const q = (text: string) => searchProducts(ranked, parseProductQuery(new URLSearchParams({ q: text })).data!);
    expect(q('sams gal').items.map((p) => p.id)).toEqual(['Galaxy Buds', 'Galaxy S25', 'Phone Stand', 'Watch 7']);
    expect(matchTier(ranked[0]!, ['gal'])).toBe(0);
    expect(matchTier(ranked[0]!, ['sams', 'gal'])).toBe(1);
    expect(matchTier(ranked[1]!, ['sams'])).toBe(2);
    expect(matchTier(ranked[1]!, ['tablet'])).toBeNull();
    // An explicit sort still wins over relevance.
    expect(searchProducts(ranked, { ...DEFAULT_QUERY, q: 'sams gal', sort: 'price-asc' }).total).toBe(4);
  });

  it('orders names as SQLite NOCASE does (ASCII case folded, then code points) and ties by id', () => {
    const names = ['b', 'A', '_x', 'a', 'Éclair', 'Zed', '{max}', '10', 'a b', 'a-b', '\u{1F4F1}', '\uFF21'];
    expect([...names].sort(compareNames)).toEqual([
      '10',
      '_x',
      'A',
      'a',
      'a b',
      'a-b',
      'b',
      'Zed',
      '{max}',
      'Éclair',
      '\uFF21',
      '\u{1F4F1}',
    ]);
    const same = [product('z-2', { name: 'Case' }), product('z-1', { name: 'CASE' })];
    expect(searchProducts(same, DEFAULT_QUERY).items.map((p) => p.id)).toEqual(['z-1', 'z-2']);
  });

  it('counts the matching products per category and brand (facets)', () => {
    expect(search({}).facets).toEqual({
      categories: [
        { id: 'phones', count: 3 },
        { id: 'laptops', count: 1 },
        { id: 'consoles', count: 1 },
      ],
      brands: [
        { name: 'Apple', count: 1 },
        { name: 'Lenovo', count: 1 },
        { name: 'Samsung', count: 1 },
        { name: 'Sony', count: 1 },
        { name: 'Tecno', count: 1 },
      ],
    });
    expect(search({ category: ['phones'], maxPrice: 300_000 }).facets).toEqual({
      categories: [{ id: 'phones', count: 2 }],
      brands: [
        { name: 'Samsung', count: 1 },
        { name: 'Tecno', count: 1 },
      ],
    });
  });

  it('lists the brands in scope regardless of the brand filter', () => {
    expect(search({ category: ['phones'], brand: ['Apple'] }).brands).toEqual(['Apple', 'Samsung', 'Tecno']);
  });

  it('pages 9 at a time', () => {
    const many = Array.from({ length: 20 }, (_, i) => product(`p${String(i).padStart(2, '0')}`));
    const page = (n: number) => searchProducts(many, { ...DEFAULT_QUERY, page: n });
    expect(PAGE_SIZE).toBe(9);
    expect(page(1).items).toHaveLength(9);
    expect(page(3).items.map((p) => p.id)).toEqual(['p18', 'p19']);
    expect(page(3)).toMatchObject({ total: 20, pageCount: 3 });
    expect(page(4).items).toEqual([]);
  });
});

describe('product query in the URL', () => {
  it('round-trips through URL parameters, leaving defaults out', () => {
    const query: ProductQuery = {
      ...DEFAULT_QUERY,
      q: 'galaxy',
      category: ['phones'],
      brand: ['Samsung', 'Apple'],
      maxPrice: 900_000,
      sort: 'rating',
    };
    const params = productQueryToParams(query);
    expect(params.toString()).toBe('q=galaxy&category=phones&brand=Samsung%2CApple&maxPrice=900000&sort=rating');
    const parsed = parseProductQuery(params);
    expect(parsed.success && parsed.data).toEqual(query);
    expect(productQueryToParams(DEFAULT_QUERY).toString()).toBe('');
  });

  it('sorts by relevance by default when there is search text, and keeps a chosen sort in the URL', () => {
    expect(parseProductQuery(new URLSearchParams('q=iph')).data?.sort).toBe('relevance');
    expect(parseProductQuery(new URLSearchParams('q=iph&sort=name')).data?.sort).toBe('name');
    expect(parseProductQuery(new URLSearchParams('')).data?.sort).toBe('name');
    expect(productQueryToParams({ q: 'iph' }).toString()).toBe('q=iph');
    expect(productQueryToParams({ q: 'iph', sort: 'relevance' }).toString()).toBe('q=iph');
    expect(productQueryToParams({ q: 'iph', sort: 'name' }).toString()).toBe('q=iph&sort=name');
    expect(productQueryToParams({ sort: 'relevance' }).toString()).toBe('sort=relevance');
  });

  it('accepts repeated list parameters and ignores unknown ones', () => {
    const parsed = parseProductQuery(new URLSearchParams('category=phones&category=tvs&utm_source=x'));
    expect(parsed.success && parsed.data.category).toEqual(['phones', 'tvs']);
  });

  it('names the parameter that is wrong', () => {
    const parsed = parseProductQuery(new URLSearchParams('sort=cheap&minPrice=9&maxPrice=1'));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['sort']);
    const range = parseProductQuery(new URLSearchParams('minPrice=9&maxPrice=1'));
    expect(range.error?.issues.map((i) => i.path.join('.'))).toEqual(['maxPrice']);
  });

  it('takes naira with separators and the naira sign, as the price boxes show them', () => {
    const parsed = parseProductQuery(new URLSearchParams('minPrice=₦150,000&maxPrice=1 500 000'));
    expect(parsed.data).toMatchObject({ minPrice: 150_000, maxPrice: 1_500_000 });
    expect(parseProductQuery(new URLSearchParams('minPrice=1.5k')).success).toBe(false);
  });

  it('reads an empty value as left out, as a form sends an empty box', () => {
    const parsed = parseProductQuery(new URLSearchParams('q=&minPrice=&maxPrice=&sort=&page='));
    expect(parsed.data).toEqual(DEFAULT_QUERY);
  });

  it('refuses a search longer than the API takes, with the limit in the message', () => {
    const parsed = parseProductQuery(new URLSearchParams({ q: 'a'.repeat(SEARCH_MAX_LENGTH + 1) }));
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ['q'], message: `Search text is limited to ${SEARCH_MAX_LENGTH} characters` }),
    ]);
    expect(parseProductQuery(new URLSearchParams({ q: 'a'.repeat(SEARCH_MAX_LENGTH) })).success).toBe(true);
  });
});
