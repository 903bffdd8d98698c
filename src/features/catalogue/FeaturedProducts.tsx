import { useEffect, useState } from 'react';
import { onReconnect } from '../pwa/connection.browser.ts';
import { fetchProductPage } from './api-client.browser.ts';
import type { Product } from './product.ts';
import { ProductCard } from './ProductCard.tsx';

/** The home page's featured products: pre-rendered, then refreshed from D1 (an admin's picks). */
export default function FeaturedProducts({ initial }: { initial: Product[] }) {
  const [products, setProducts] = useState(initial);
  // Fetched again when the connection comes back (prices may have changed while offline).
  const [freshness, setFreshness] = useState(0);
  useEffect(() => onReconnect(() => setFreshness((n) => n + 1)), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `freshness` only asks for a new fetch
  useEffect(() => {
    const controller = new AbortController();
    fetchProductPage({ featured: true, sort: 'rating' }, controller.signal)
      .then((page) => setProducts(page.items))
      .catch(() => {
        // Keep the pre-rendered products: a stale card beats an empty shelf.
      });
    return () => controller.abort();
  }, [freshness]);
  // One row that scrolls sideways (global.css, .featured-shelf): full at every width, whatever
  // the number of picks D1 answers with, and the same height before and after the refresh.
  return (
    <ul className="featured-shelf">
      {products.map((p) => (
        <li key={p.id}>
          <ProductCard product={p} />
        </li>
      ))}
    </ul>
  );
}
