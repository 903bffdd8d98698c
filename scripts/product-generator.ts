import { BRANDS } from '../src/features/catalogue/brands.ts';
import { CATEGORY_IDS } from '../src/features/catalogue/categories.ts';
import type { Product } from '../src/features/catalogue/product.ts';

/**
 * Realistic made-up products for scale tests and the benchmark (pure and deterministic: the
 * same seed gives the same products). Used by tests/api/product-search*.test.ts (inserted in
 * the test's D1) and scripts/generate-products.ts (the benchmark's second local D1).
 */

const LINES: Record<string, string[]> = {
  phones: ['Galaxy', 'Spark', 'Note', 'Hot', 'Camon', 'Pova', 'Reno', 'Redmi', 'Pixel', 'Nord'],
  laptops: ['ThinkPad', 'IdeaPad', 'Pavilion', 'Inspiron', 'Vivobook', 'Swift', 'Aspire', 'Envy', 'Latitude'],
  tvs: ['Crystal UHD', 'QLED', 'OLED evo', 'NanoCell', 'Mini LED', 'Smart TV'],
  consoles: ['Console', 'Handheld', 'Slim', 'Digital Edition'],
  accessories: ['Charger', 'Power Bank', 'USB-C Cable', 'Earbuds', 'Case', 'Adapter'],
  games: ['Adventure', 'Racing', 'Football', 'Shooter', 'Legends', 'Chronicles'],
};
const ADJECTIVES = ['Pro', 'Max', 'Plus', 'Ultra', 'Lite', 'Neo', 'Air', 'Prime', 'Edge', 'Go'];
const WORDS = [
  'battery',
  'display',
  'camera',
  'fast',
  'charging',
  'warranty',
  'genuine',
  'storage',
  'memory',
  'processor',
  'brightness',
  'speakers',
  'wireless',
  'bluetooth',
  'durable',
  'lightweight',
  'gaming',
  'office',
  'students',
  'streaming',
  'photos',
  'video',
  'sound',
  'screen',
  'performance',
  'Lagos',
  'Abuja',
  'delivery',
  'power',
  'quality',
  'café',
  'naïve',
  'resolution',
  'refresh',
  'rate',
  'portable',
  'design',
  'premium',
  'value',
];

/** A small seeded random number generator (mulberry32). */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GenerateOptions {
  seed?: number;
  /** Id prefix, so several generated sets can live in one D1. */
  prefix?: string;
  categories?: readonly string[];
  brands?: readonly string[];
  /** Extra words put into every description (e.g. a marker a test searches for). */
  descriptionWords?: readonly string[];
  /** Price band in naira (inclusive); by default ₦5,000 to ₦4,900,000 with a few above ₦5,000,000. */
  priceNaira?: readonly [number, number];
}

export function generateProducts(count: number, options: GenerateOptions = {}): Product[] {
  const rnd = random(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const categories = options.categories ?? CATEGORY_IDS;
  const brands = options.brands ?? BRANDS;
  const prefix = options.prefix ?? 'gen';
  const out: Product[] = [];
  for (let i = 0; i < count; i++) {
    const category = pick(categories);
    const brand = pick(brands);
    const line = pick(LINES[category] ?? ['Series', 'Model', 'Edition']);
    const model = `${pick(['A', 'S', 'X', 'M', 'G', 'C'])}${Math.floor(rnd() * 90) + 10}`;
    const name = `${brand} ${line} ${model}${rnd() < 0.4 ? ` ${pick(ADJECTIVES)}` : ''}`;
    const words = Array.from({ length: 8 + Math.floor(rnd() * 12) }, () => pick(WORDS));
    const description = `${name}: ${[...words, ...(options.descriptionWords ?? [])].join(' ')}.`;
    const [low, high] = options.priceNaira ?? [5_000, rnd() < 0.01 ? 7_500_000 : 4_900_000];
    const price = (low + Math.floor(rnd() * (high - low + 1))) * 100;
    const stock = rnd() < 0.1 ? 0 : Math.floor(rnd() * 60);
    // Some come in two colours, the second a little dearer; the product is "from" the first's
    // price and holds their total stock, as the database's triggers keep it.
    const variants =
      rnd() < 0.3
        ? [
            { id: 'black', label: 'Black', price, stock: Math.ceil(stock / 2), inStock: Math.ceil(stock / 2) > 0, image: null },
            {
              id: 'silver',
              label: 'Silver',
              price: price + 100_000,
              stock: Math.floor(stock / 2),
              inStock: Math.floor(stock / 2) > 0,
              image: null,
            },
          ]
        : [];
    out.push({
      id: `${prefix}-${i}`,
      name,
      brand,
      category,
      description,
      price,
      image: '/images/products/placeholder.svg',
      variantLabel: variants.length ? 'Colour' : '',
      variants,
      stock,
      inStock: stock > 0,
      rating: Math.round((2.5 + rnd() * 2.5) * 10) / 10,
      reviews: Math.floor(rnd() * 2000),
      featured: rnd() < 0.01,
    });
  }
  return out;
}
