import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatNaira, wholeNairaToKobo } from '../../lib/money.ts';
import { categoryLabel } from './categories.ts';
import { listingHref } from './listing.ts';
import { DEFAULT_QUERY, type ProductQuery } from './search.ts';

interface Props {
  query: ProductQuery;
  apply: (change: Partial<ProductQuery>) => void;
  /** Empties the search box as well as the query's search. */
  clearSearch: () => void;
  clearAll: () => void;
  /** Before hydration (and without JavaScript) each chip is a link to the listing without its filter. */
  hydrated: boolean;
}

interface Chip {
  key: string;
  label: string;
  /** The listing without this filter (the chip without JavaScript). */
  href: string;
  remove: () => void;
}

/** The active filters as chips, each removed on its own, and 'Clear All'. */
export function FilterChips({ query, apply, clearSearch, clearAll, hydrated }: Props) {
  const without = (change: Partial<ProductQuery>) => listingHref({ ...query, ...change, page: 1 });
  const chips: Chip[] = [
    ...(query.q ? [{ key: 'q', label: `“${query.q}”`, href: without({ q: '' }), remove: clearSearch }] : []),
    ...query.category.map((c) => {
      const category = query.category.filter((x) => x !== c);
      return { key: `c-${c}`, label: categoryLabel(c), href: without({ category }), remove: () => apply({ category }) };
    }),
    ...query.brand.map((b) => {
      const brand = query.brand.filter((x) => x !== b);
      return { key: `b-${b}`, label: b, href: without({ brand }), remove: () => apply({ brand }) };
    }),
    ...(query.minPrice !== DEFAULT_QUERY.minPrice || query.maxPrice !== DEFAULT_QUERY.maxPrice
      ? [
          {
            key: 'price',
            label: `${formatNaira(wholeNairaToKobo(query.minPrice))} – ${formatNaira(wholeNairaToKobo(query.maxPrice))}`,
            href: without({ minPrice: DEFAULT_QUERY.minPrice, maxPrice: DEFAULT_QUERY.maxPrice }),
            remove: () => apply({ minPrice: DEFAULT_QUERY.minPrice, maxPrice: DEFAULT_QUERY.maxPrice }),
          },
        ]
      : []),
  ];
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label="Active filters">
      {chips.map((chip) => (
        <li key={chip.key}>
          <ChipAction
            className="chip"
            hydrated={hydrated}
            href={chip.href}
            onClick={chip.remove}
            label={`Remove filter ${chip.label}`}
          >
            {/* A long search is cut short with an ellipsis (the full text is in the label): the chip never widens the page. */}
            <span className="chip__text">{chip.label}</span> <X size={14} aria-hidden="true" />
          </ChipAction>
        </li>
      ))}
      <li>
        <ChipAction
          className="chip chip--clear"
          hydrated={hydrated}
          href={listingHref({ sort: query.sort === 'relevance' ? DEFAULT_QUERY.sort : query.sort })}
          onClick={clearAll}
        >
          Clear All
        </ChipAction>
      </li>
    </ul>
  );
}

interface ActionProps {
  className: string;
  hydrated: boolean;
  href: string;
  onClick: () => void;
  label?: string;
  children: ReactNode;
}

/** A link to the listing without JavaScript; a button acting in place once hydrated (same look, same place). */
function ChipAction({ className, hydrated, href, onClick, label, children }: ActionProps) {
  if (!hydrated) {
    return (
      <a className={className} href={href} aria-label={label}>
        {children}
      </a>
    );
  }
  return (
    <button type="button" className={className} aria-label={label} onClick={onClick}>
      {children}
    </button>
  );
}
