import type { Product } from './product.ts';
import { plainNaira } from '../../lib/money.ts';

/** schema.org Product data for search engines (price in naira, as they expect). */
export function productJsonLd(product: Product, site: URL): Record<string, unknown> {
  const url = new URL(`/product/${product.id}`, site).href;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    description: product.description,
    image: new URL(product.image, site).href,
    sku: product.id,
    brand: { '@type': 'Brand', name: product.brand },
    aggregateRating:
      product.reviews > 0 ? { '@type': 'AggregateRating', ratingValue: product.rating, reviewCount: product.reviews } : undefined,
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'NGN',
      price: plainNaira(product.price),
      availability: product.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}
