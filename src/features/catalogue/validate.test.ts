import { describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../../scripts/catalogue-files.ts';
import { CatalogueError } from './catalogue-error.ts';
import { validateCatalogue } from './validate.ts';
import { BRANDS } from './brands.ts';

const good = {
  id: 'tecno-spark-30',
  name: 'Tecno Spark 30',
  brand: 'Tecno',
  category: 'phones',
  description: 'A 6.78-inch phone with a 64 MP camera and a 5,000 mAh battery.',
  priceNaira: 214_999.5,
  image: '/images/products/tecno-spark-30.svg',
  stock: 12,
  rating: 4.3,
  reviews: 120,
  featured: false,
};

function problemsOf(files: { file: string; data: unknown }[], imageExists?: (p: string) => boolean): string[] {
  try {
    validateCatalogue(files, { imageExists });
  } catch (error) {
    if (error instanceof CatalogueError) return error.problems;
    throw error;
  }
  return [];
}

const { priceNaira: _price, stock: _stock, ...withoutPriceAndStock } = good;
const withVariants = {
  ...withoutPriceAndStock,
  id: 'tecno-spark-40',
  variantLabel: 'Memory and storage',
  variants: [
    { label: '8GB + 128GB', priceNaira: 219_000, stock: 0 },
    { label: '8GB + 256GB', priceNaira: 249_000, stock: 7, image: '/images/products/tecno-spark-40-blue.svg' },
    { id: 'special', label: 'Special edition', priceNaira: 299_000.5, stock: 2 },
  ],
};

describe('catalogue validation', () => {
  it('accepts a good product and prices it in kobo', () => {
    const [product] = validateCatalogue([{ file: 'phones.json', data: [good] }]);
    expect(product).toMatchObject({ id: 'tecno-spark-30', price: 21_499_950, inStock: true, variantLabel: '', variants: [] });
  });

  it('prices and stocks each variant, and gives the product the lowest price and the total stock', () => {
    const [product] = validateCatalogue([{ file: 'phones.json', data: [withVariants] }]);
    expect(product).toMatchObject({ price: 21_900_000, stock: 9, inStock: true, variantLabel: 'Memory and storage' });
    expect(product?.variants).toEqual([
      { id: '8gb-128gb', label: '8GB + 128GB', price: 21_900_000, stock: 0, inStock: false, image: null },
      {
        id: '8gb-256gb',
        label: '8GB + 256GB',
        price: 24_900_000,
        stock: 7,
        inStock: true,
        image: '/images/products/tecno-spark-40-blue.svg',
      },
      { id: 'special', label: 'Special edition', price: 29_900_050, stock: 2, inStock: true, image: null },
    ]);
  });

  it('refuses a variant without a price or stock, and price or stock beside variants', () => {
    const [first, second] = withVariants.variants;
    const problems = problemsOf([
      {
        file: 'phones.json',
        data: [
          { ...withVariants, id: 'a', variants: [{ label: '128GB', stock: 3 }, second] },
          { ...withVariants, id: 'b', variants: [first, { label: '256GB', priceNaira: 249_000 }] },
          { ...withVariants, id: 'c', priceNaira: 219_000 },
          { ...withVariants, id: 'd', stock: 4 },
          { ...withVariants, id: 'e', variantLabel: undefined },
          { ...good, id: 'f', stock: undefined },
          { ...withVariants, id: 'g', variants: [first, { ...first, label: '8GB + 128GB' }] },
        ],
      },
    ]);
    expect(problems.map((p) => p.split(': ').slice(1, 3).join(': '))).toEqual([
      'product "a" (#1): variants.0.priceNaira',
      'product "b" (#2): variants.1.stock',
      'product "c" (#3): priceNaira',
      'product "d" (#4): stock',
      'product "e" (#5): variantLabel',
      'product "f" (#6): stock',
      'product "g" (#7): variants.1.label',
    ]);
  });

  it('checks that variant images exist', () => {
    expect(problemsOf([{ file: 'x.json', data: [withVariants] }], (path) => !path.endsWith('-blue.svg'))).toEqual([
      'x.json: product "tecno-spark-40" (#1): image: no file at public/images/products/tecno-spark-40-blue.svg',
    ]);
  });

  it("rejects the specification's placeholder dash price, naming file, product and field", () => {
    const problems = problemsOf([
      { file: 'src/data/products/phones.json', data: [good, { ...good, id: 'mystery', priceNaira: '-' }] },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^src\/data\/products\/phones\.json: product "mystery" \(#2\): priceNaira: /);
  });

  it('names every problem in a file at once', () => {
    const problems = problemsOf([
      {
        file: 'tvs.json',
        data: [
          { ...good, id: 'a', brand: 'Sunny' },
          { ...good, id: 'b', category: 'fridges', stock: -1 },
          { ...good, id: 'a' },
        ],
      },
    ]);
    expect(problems).toEqual([
      expect.stringMatching(/^tvs\.json: product "a" \(#1\): brand: /),
      expect.stringMatching(/^tvs\.json: product "b" \(#2\): category: /),
      expect.stringMatching(/^tvs\.json: product "b" \(#2\): stock: /),
      expect.stringMatching(/^tvs\.json: product "a" \(#3\): id: "a" is already used in tvs\.json/),
    ]);
  });

  it('rejects unknown fields, fractions of a kobo, variants given as labels only and remote images', () => {
    const problems = problemsOf([
      {
        file: 'x.json',
        data: [
          { ...good, id: 'a', colour: 'red' },
          { ...good, id: 'b', priceNaira: 10.001 },
          { ...withoutPriceAndStock, id: 'c', variantLabel: 'Colour', variants: ['Black', 'White'] },
          { ...good, id: 'd', image: 'https://cdn.example.com/d.png' },
        ],
      },
    ]);
    expect(problems.map((p) => p.split(': ').slice(1, 3).join(': '))).toEqual([
      'product "a" (#1): (product)',
      'product "b" (#2): priceNaira',
      'product "c" (#3): variants.0',
      'product "c" (#3): variants.1',
      'product "d" (#4): image',
    ]);
  });

  it('rejects a file that is not a list, and a missing image file', () => {
    expect(problemsOf([{ file: 'x.json', data: { products: [] } }])[0]).toMatch(/^x\.json: /);
    expect(problemsOf([{ file: 'x.json', data: [good] }], () => false)).toEqual([
      'x.json: product "tecno-spark-30" (#1): image: no file at public/images/products/tecno-spark-30.svg',
    ]);
  });
});

describe('the shipped catalogue', () => {
  const catalogue = readCatalogueFromDisk();

  it('is valid, with local images, and large enough to browse', () => {
    expect(catalogue.length).toBeGreaterThanOrEqual(48);
  });

  it('covers every department with real brands and naira prices in range', () => {
    const categories = new Set(catalogue.map((p) => p.category));
    for (const department of ['phones', 'laptops', 'tvs', 'consoles', 'accessories', 'games']) {
      expect(categories, department).toContain(department);
    }
    for (const p of catalogue) {
      expect(BRANDS).toContain(p.brand);
      expect(p.price, p.id).toBeGreaterThan(0);
      expect(p.price, p.id).toBeLessThanOrEqual(5_000_000 * 100);
    }
  });

  it('features a handful of products and has variants where they make sense', () => {
    const featured = catalogue.filter((p) => p.featured).length;
    expect(featured).toBeGreaterThanOrEqual(4);
    expect(featured).toBeLessThanOrEqual(9);
    const phonesWithVariants = catalogue.filter((p) => p.category === 'phones' && p.variants.length > 0);
    expect(phonesWithVariants.length).toBeGreaterThan(0);
    // Storage variants are priced apart: the iPhone 17 512GB costs more than the 256GB.
    const iphone = catalogue.find((p) => p.id === 'apple-iphone-17');
    const price = (id: string) => iphone?.variants.find((v) => v.id === id)?.price ?? 0;
    expect(price('512gb')).toBeGreaterThan(price('256gb'));
    expect(catalogue.some((p) => p.stock === 0)).toBe(true);
  });
});
