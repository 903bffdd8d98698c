import { X } from 'lucide-react';
import { formatNaira, wholeNairaToKobo } from '../../lib/money.ts';
import { categoryLabel } from './categories.ts';
import { listingHref } from './listing.ts';
import { DEFAULT_QUERY, type ProductQuery } from './search.ts';

interface Chip {
  key: string;
  label: string;
  /** The listing without this filter. */
  href: string;
}

/**
 * The active filters as chips, each removed on its own, and 'Clear All'. Each is a link to the
 * listing without that filter (without JavaScript); the listing's script turns them into buttons
 * acting in place (`data-in-place`).
 */
export function FilterChips({ query }: { query: ProductQuery }) {
  const without = (change: Partial<ProductQuery>) => listingHref({ ...query, ...change, page: 1 });
  const chips: Chip[] = [
    ...(query.q ? [{ key: 'q', label: `“${query.q}”`, href: without({ q: '' }) }] : []),
    ...query.category.map((c) => ({
      key: `c-${c}`,
      label: categoryLabel(c),
      href: without({ category: query.category.filter((x) => x !== c) }),
    })),
    ...query.brand.map((b) => ({ key: `b-${b}`, label: b, href: without({ brand: query.brand.filter((x) => x !== b) }) })),
    ...(query.minPrice !== DEFAULT_QUERY.minPrice || query.maxPrice !== DEFAULT_QUERY.maxPrice
      ? [
          {
            key: 'price',
            label: priceLabel(query),
            href: without({ minPrice: DEFAULT_QUERY.minPrice, maxPrice: DEFAULT_QUERY.maxPrice }),
          },
        ]
      : []),
  ];
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <a className="chip" href={chip.href} aria-label={`Remove filter ${chip.label}`} data-in-place>
            {/* A long search is cut short with an ellipsis (the full text is in the label): the chip never widens the page. */}
            <span className="chip__text">{chip.label}</span> <X size={14} aria-hidden="true" />
          </a>
        </li>
      ))}
      <li>
        {/* Every filter and the search back to the defaults; the sort order stays. */}
        <a
          className="chip chip--clear"
          href={listingHref({ sort: query.sort === 'relevance' ? DEFAULT_QUERY.sort : query.sort })}
          data-in-place
        >
          Clear All
        </a>
      </li>
    </ul>
  );
}

/** The price chip says only the bounds the shopper set: "From ₦1,000,000", "Up to ₦50,000", or both. */
export function priceLabel({ minPrice, maxPrice }: Pick<ProductQuery, 'minPrice' | 'maxPrice'>): string {
  const naira = (n: number) => formatNaira(wholeNairaToKobo(n));
  if (maxPrice === DEFAULT_QUERY.maxPrice) return `From ${naira(minPrice)}`;
  if (minPrice === DEFAULT_QUERY.minPrice) return `Up to ${naira(maxPrice)}`;
  return `${naira(minPrice)} – ${naira(maxPrice)}`;
}
