import { X } from 'lucide-react';
import { formatNaira, wholeNairaToKobo } from '../../lib/money.ts';
import { categoryLabel } from './categories.ts';
import { DEFAULT_QUERY, type ProductQuery } from './search.ts';

interface Props {
  query: ProductQuery;
  apply: (change: Partial<ProductQuery>) => void;
  /** Empties the search box as well as the query's search. */
  clearSearch: () => void;
  clearAll: () => void;
}

/** The active filters as chips, each removed on its own, and 'Clear All'. */
export function FilterChips({ query, apply, clearSearch, clearAll }: Props) {
  const chips: { key: string; label: string; remove: () => void }[] = [
    ...(query.q ? [{ key: 'q', label: `“${query.q}”`, remove: clearSearch }] : []),
    ...query.category.map((c) => ({
      key: `c-${c}`,
      label: categoryLabel(c),
      remove: () => apply({ category: query.category.filter((x) => x !== c) }),
    })),
    ...query.brand.map((b) => ({ key: `b-${b}`, label: b, remove: () => apply({ brand: query.brand.filter((x) => x !== b) }) })),
    ...(query.minPrice !== DEFAULT_QUERY.minPrice || query.maxPrice !== DEFAULT_QUERY.maxPrice
      ? [
          {
            key: 'price',
            label: `${formatNaira(wholeNairaToKobo(query.minPrice))} – ${formatNaira(wholeNairaToKobo(query.maxPrice))}`,
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
          <button type="button" className="chip" onClick={chip.remove} aria-label={`Remove filter ${chip.label}`}>
            {chip.label} <X size={14} aria-hidden="true" />
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="chip chip--clear" onClick={clearAll}>
          Clear All
        </button>
      </li>
    </ul>
  );
}
