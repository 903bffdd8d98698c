import { describe, expect, it } from 'vitest';
import type { Product } from './product.ts';
import { DEFAULT_QUERY, PAGE_SIZE, parseProductQuery, productQueryToParams, searchProducts, type ProductQuery } from './search.ts';

function product(id: string, over: Partial<Product> = {}): Product {
  return {
    id,
    name: id,
    brand: 'Samsung',
    category: 'phones',
    description: 'A phone with a big screen and a long-lasting battery.',
    price: 10_000_000,
    image: `/images/products/${id}.svg`,
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
  product('ThinkPad E14', { brand: 'Lenovo', category: 'laptops', price: 120_000_000, description: 'Business laptop with Intel Core i5.' }),
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

  it('matches every search word against name, brand, category and description', () => {
    expect(ids({ q: 'intel laptop' })).toEqual(['ThinkPad E14']);
    expect(ids({ q: 'apple' })).toEqual(['iPhone 16']);
    expect(ids({ q: 'video games' })).toEqual([]);
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
    const query: ProductQuery = { ...DEFAULT_QUERY, q: 'galaxy', category: ['phones'], brand: ['Samsung', 'Apple'], maxPrice: 900_000, sort: 'rating' };
    const params = productQueryToParams(query);
    expect(params.toString()).toBe('q=galaxy&category=phones&brand=Samsung%2CApple&maxPrice=900000&sort=rating');
    const parsed = parseProductQuery(params);
    expect(parsed.success && parsed.data).toEqual(query);
    expect(productQueryToParams(DEFAULT_QUERY).toString()).toBe('');
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
});
