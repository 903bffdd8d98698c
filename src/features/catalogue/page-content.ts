import { mostPerOrder } from '../cart/cart.ts';
import { stockText } from './product-choice.ts';
import { hasPriceRange, priceRange, type Product } from './product.ts';

/**
 * What a product page's HTML says of its product: the words, prices, pictures, rating and stock
 * lines a shopper (or a search engine reading the JSON-LD) sees before any script runs, and how
 * many units one order may take ("Up to N per order": mostPerOrder()). Exact stock counts past
 * those are left out: they change with every sale and the page shows them only as "In stock".
 *
 * The build records this for each page it pre-renders (/page-versions.json); the Worker compares
 * it with D1's row on each product page request and serves the pre-rendered file only while they
 * are equal (functions/catalogue/product-pages.ts, docs/decisions/025-one-catalogue-truth.md).
 */
export function productPageContent(product: Product) {
  return {
    id: product.id,
    name: product.name,
    brand: product.brand,
    category: product.category,
    description: product.description,
    price: product.price,
    image: product.image,
    variantLabel: product.variantLabel,
    variants: product.variants.map((v) => ({
      id: v.id,
      label: v.label,
      price: v.price,
      image: v.image,
      stock: stockText(v.stock),
      perOrder: mostPerOrder(v.stock),
    })),
    stock: stockText(product.stock),
    perOrder: mostPerOrder(product.stock),
    rating: product.rating,
    reviews: product.reviews,
    storeReviews: product.storeReviews ?? 0,
  };
}

/** What a product card (ProductCard.tsx: the home page's featured shelf) shows of its product. */
export function productCardContent(product: Product) {
  return {
    id: product.id,
    name: product.name,
    brand: product.brand,
    description: product.description,
    rating: product.rating,
    reviews: product.reviews,
    price: priceRange(product).from,
    priceRange: hasPriceRange(product),
    image: product.image,
    inStock: product.inStock,
    variants: product.variants.length > 0,
  };
}

/**
 * Short fingerprints of what a page shows: equal for equal content, whoever computes them (the
 * build in Node, the Worker). Change detectors, not security checks: only the build and D1's own
 * rows are ever compared. 53-bit cyrb53 over the canonical JSON, as 14 hex digits.
 */
export function productPageVersion(product: Product): string {
  return fingerprint(productPageContent(product));
}

/** The featured shelf's fingerprint: its cards, in id order (the order alone is not a change worth a render). */
export function featuredShelfVersion(products: readonly Product[]): string {
  return fingerprint([...products].sort((a, b) => (a.id < b.id ? -1 : 1)).map(productCardContent));
}

function fingerprint(content: unknown): string {
  return cyrb53(JSON.stringify(content)).toString(16).padStart(14, '0');
}

function cyrb53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
