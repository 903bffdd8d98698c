import type { Brand } from './brands.ts';
import { categoryLabel, type CategoryId } from './categories.ts';
import { DEFAULT_QUERY, PRICE_FILTER_MAX_NAIRA, type ProductQuery } from './search.ts';

interface Props {
  id: string;
  /** null until the island knows the screen size: then CSS decides (open on wide screens). */
  open: boolean | null;
  /** Categories that have products, in menu order. */
  categories: readonly CategoryId[];
  /** Brands in the current results. */
  brands: readonly string[];
  query: ProductQuery;
  apply: (change: Partial<ProductQuery>) => void;
}

const toggle = <T extends string>(list: readonly T[], value: T) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

/** The product browser's filters: categories, a price range in whole naira, brands. */
export function FilterPanel({ id, open, categories, brands, query, apply }: Props) {
  // A brand the shopper picked stays listed even when the results no longer include it.
  const brandOptions = [...new Set([...brands, ...query.brand])].sort((a, b) => a.localeCompare(b));
  return (
    <aside id={id} className="card browser__filters" data-open={open === null ? 'auto' : String(open)} aria-label="Filters">
      <fieldset>
        <legend>Category</legend>
        {categories.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={query.category.includes(c)}
              onChange={() => apply({ category: toggle(query.category, c) })}
            />
            {categoryLabel(c)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Price (₦)</legend>
        <div className="price-range">
          <NairaInput
            label="Min"
            value={query.minPrice}
            whenEmpty={DEFAULT_QUERY.minPrice}
            onCommit={(value) => apply({ minPrice: Math.min(value, query.maxPrice) })}
          />
          <NairaInput
            label="Max"
            value={query.maxPrice}
            whenEmpty={PRICE_FILTER_MAX_NAIRA}
            onCommit={(value) => apply({ maxPrice: Math.max(value, query.minPrice) })}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Brand</legend>
        <div className="brand-list">
          {brandOptions.map((b) => (
            <label key={b} className="check">
              <input
                type="checkbox"
                checked={query.brand.includes(b as Brand)}
                onChange={() => apply({ brand: toggle(query.brand, b as Brand) })}
              />
              {b}
            </label>
          ))}
        </div>
      </fieldset>
    </aside>
  );
}

interface NairaInputProps {
  label: string;
  value: number;
  /** What an empty or invalid entry means (the default end of the range). */
  whenEmpty: number;
  onCommit: (value: number) => void;
}

/** A whole-naira amount, applied when the shopper leaves the field or presses Enter. */
function NairaInput({ label, value, whenEmpty, onCommit }: NairaInputProps) {
  const commit = (raw: string) => {
    const n = Math.floor(Number(raw));
    const next = raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : whenEmpty;
    if (next !== value) onCommit(next);
  };
  return (
    <label className="field">
      <span className="muted">{label}</span>
      <input
        className="input"
        type="number"
        inputMode="numeric"
        min={0}
        step={1000}
        defaultValue={value}
        key={value}
        onBlur={(e) => commit(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commit(e.currentTarget.value)}
      />
    </label>
  );
}
