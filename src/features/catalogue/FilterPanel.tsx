import { useEffect, useRef, useState } from 'react';
import type { Brand } from './brands.ts';
import { categoryLabel, type CategoryId } from './categories.ts';
import { formatNairaText, type ListingErrors, parseNairaText, priceRangeProblem } from './listing.ts';
import { DEFAULT_QUERY, PRICE_FILTER_MAX_NAIRA, PRICE_FILTER_MIN_NAIRA, type ProductQuery } from './search.ts';

interface Props {
  id: string;
  /** The filter form (in the top bar) these fields belong to. */
  form: string;
  /** null until the island knows the screen size: then CSS decides (open on wide screens). */
  open: boolean | null;
  /** Categories that have products, in menu order. */
  categories: readonly CategoryId[];
  /** Brands in the current results. */
  brands: readonly string[];
  query: ProductQuery;
  apply: (change: Partial<ProductQuery>) => void;
  /** The price boxes' text as the URL had it, when the server could not use it. */
  priceText: { min: string; max: string };
  /** Why a parameter of the URL or of the last request was refused. */
  errors: ListingErrors;
  /** Before hydration (and without JavaScript) the panel is a plain form part with an Apply button. */
  hydrated: boolean;
}

const toggle = <T extends string>(list: readonly T[], value: T) =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value];

/**
 * The product browser's filters: categories, a price range in whole naira, brands. Every field
 * is part of the listing's GET form, so without JavaScript "Apply filters" submits them;
 * hydrated, each change applies at once.
 */
export function FilterPanel({ id, form, open, categories, brands, query, apply, priceText, errors, hydrated }: Props) {
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
              name="category"
              value={c}
              form={form}
              checked={query.category.includes(c)}
              onChange={() => apply({ category: toggle(query.category, c) })}
            />
            {categoryLabel(c)}
          </label>
        ))}
      </fieldset>
      <PriceRange form={form} query={query} apply={apply} priceText={priceText} errors={errors} />
      <fieldset>
        <legend>Brand</legend>
        <div className="brand-list">
          {brandOptions.map((b) => (
            <label key={b} className="check">
              <input
                type="checkbox"
                name="brand"
                value={b}
                form={form}
                checked={query.brand.includes(b as Brand)}
                onChange={() => apply({ brand: toggle(query.brand, b as Brand) })}
              />
              {b}
            </label>
          ))}
        </div>
      </fieldset>
      {!hydrated && (
        <button type="submit" form={form} className="btn btn-primary">
          Apply filters
        </button>
      )}
    </aside>
  );
}

/** A box's text for an amount: empty for the open end of the range (its placeholder says what that means). */
const boxText = (naira: number, openEnd: number) => (naira === openEnd ? '' : formatNairaText(naira));

/** A refused box's text as the shopper sent it, with separators when it is an amount. */
const asTyped = (text: string) => {
  const amount = parseNairaText(text);
  return amount.ok && amount.naira !== null ? formatNairaText(amount.naira) : text;
};

type Problem = { box: 'min' | 'max'; message: string } | null;

function PriceRange({ form, query, apply, priceText, errors }: Pick<Props, 'form' | 'query' | 'apply' | 'priceText' | 'errors'>) {
  const refused = errors.minPrice !== undefined || errors.maxPrice !== undefined;
  const [min, setMin] = useState(() => (refused ? asTyped(priceText.min) : boxText(query.minPrice, PRICE_FILTER_MIN_NAIRA)));
  const [max, setMax] = useState(() => (refused ? asTyped(priceText.max) : boxText(query.maxPrice, PRICE_FILTER_MAX_NAIRA)));
  const [problem, setProblem] = useState<Problem>(() =>
    errors.minPrice !== undefined
      ? { box: 'min', message: errors.minPrice }
      : errors.maxPrice !== undefined
        ? { box: 'max', message: errors.maxPrice }
        : null,
  );

  // The range changed (applied here, or elsewhere: a chip, Clear All, Back): the boxes show it.
  const shownRange = useRef(`${query.minPrice}-${query.maxPrice}`);
  useEffect(() => {
    const range = `${query.minPrice}-${query.maxPrice}`;
    if (range === shownRange.current) return;
    shownRange.current = range;
    setMin(boxText(query.minPrice, PRICE_FILTER_MIN_NAIRA));
    setMax(boxText(query.maxPrice, PRICE_FILTER_MAX_NAIRA));
    setProblem(null);
  }, [query.minPrice, query.maxPrice]);

  // A refusal that names a price (the URL's, or the API's) shows at its box.
  useEffect(() => {
    if (errors.minPrice !== undefined) setProblem({ box: 'min', message: errors.minPrice });
    else if (errors.maxPrice !== undefined) setProblem({ box: 'max', message: errors.maxPrice });
  }, [errors.minPrice, errors.maxPrice]);

  /** Reads both boxes; applies the range when it can be searched, says why at the box otherwise. */
  const commit = (edited: 'min' | 'max') => {
    const low = parseNairaText(min);
    const high = parseNairaText(max);
    if (low.ok) setMin(low.naira === null ? '' : formatNairaText(low.naira));
    if (high.ok) setMax(high.naira === null ? '' : formatNairaText(high.naira));
    if (!low.ok || !high.ok) {
      setProblem(low.ok ? { box: 'max', message: high.ok ? '' : high.message } : { box: 'min', message: low.message });
      return;
    }
    const minPrice = low.naira ?? PRICE_FILTER_MIN_NAIRA;
    const maxPrice = high.naira ?? PRICE_FILTER_MAX_NAIRA;
    // Said at the box, never swapped or clamped: the shopper decides which end was meant.
    const inverted = priceRangeProblem(minPrice, maxPrice);
    setProblem(inverted ? { box: edited, message: inverted } : null);
    if (!inverted && (minPrice !== query.minPrice || maxPrice !== query.maxPrice)) apply({ minPrice, maxPrice });
  };

  const box = (which: 'min' | 'max') => {
    const invalid = problem?.box === which;
    return (
      <label className="field">
        <span className="muted">{which === 'min' ? 'Min' : 'Max'}</span>
        <input
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          name={which === 'min' ? 'minPrice' : 'maxPrice'}
          form={form}
          placeholder={formatNairaText(which === 'min' ? DEFAULT_QUERY.minPrice : DEFAULT_QUERY.maxPrice)}
          value={which === 'min' ? min : max}
          aria-invalid={invalid || undefined}
          aria-describedby={problem ? 'price-problem' : undefined}
          onChange={(e) => (which === 'min' ? setMin(e.target.value) : setMax(e.target.value))}
          onBlur={() => commit(which)}
          onKeyDown={(e) => e.key === 'Enter' && commit(which)}
        />
      </label>
    );
  };

  return (
    <fieldset>
      <legend>Price (₦)</legend>
      <div className="price-range">
        {box('min')}
        {box('max')}
      </div>
      {problem && (
        <p id="price-problem" className="field-error" role="alert">
          {problem.message}
        </p>
      )}
    </fieldset>
  );
}
