import type { Brand } from './brands.ts';
import { categoryLabel, type CategoryId } from './categories.ts';
import type { ListingErrors } from './listing.ts';
import { formatNairaText, PRICE_FILTER_MAX_NAIRA, PRICE_FILTER_MIN_NAIRA, parseNairaText } from './price-text.ts';
import type { ProductQuery } from './search.ts';

interface Props {
  id: string;
  /** The filter form (in the top bar) these fields belong to. */
  form: string;
  /** Categories that have products, in menu order. */
  categories: readonly CategoryId[];
  /** Brands in the current results. */
  brands: readonly string[];
  query: ProductQuery;
  /** The price boxes' text as the URL had it, when the server could not use it. */
  priceText: { min: string; max: string };
  /** Why a parameter of the URL was refused. */
  errors: ListingErrors;
}

/**
 * The product browser's filters: categories, a price range in whole naira, brands. Every field
 * is part of the listing's GET form, so without JavaScript "Apply filters" submits them; with
 * the listing's script each change applies at once (a price box when the shopper leaves it or
 * presses Enter, after the script checks the range) and the button goes.
 */
export function FilterPanel({ id, form, categories, brands, query, priceText, errors }: Props) {
  // A brand the shopper picked stays listed even when the results no longer include it.
  const brandOptions = [...new Set([...brands, ...query.brand])].sort((a, b) => a.localeCompare(b));
  return (
    // data-open: 'auto' lets CSS decide (open on wide screens, or as the Filters link's target); the script sets true/false.
    <aside id={id} className="card browser__filters" data-open="auto" aria-label="Filters">
      <fieldset>
        <legend>Category</legend>
        {categories.map((c) => (
          <label key={c} className="check">
            <input type="checkbox" name="category" value={c} form={form} defaultChecked={query.category.includes(c)} />
            {categoryLabel(c)}
          </label>
        ))}
      </fieldset>
      <PriceRange form={form} query={query} priceText={priceText} errors={errors} />
      <fieldset>
        <legend>Brand</legend>
        <div className="brand-list">
          {brandOptions.map((b) => (
            <label key={b} className="check">
              <input type="checkbox" name="brand" value={b} form={form} defaultChecked={query.brand.includes(b as Brand)} />
              {b}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" form={form} className="btn btn-primary" data-apply-filters>
        Apply filters
      </button>
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

/**
 * The price range. Each box says what the results are filtered by (`data-applied`, whole naira),
 * so the script applies a box only when it changed; a refusal (the URL's) is said at its box.
 */
function PriceRange({ form, query, priceText, errors }: Pick<Props, 'form' | 'query' | 'priceText' | 'errors'>) {
  const refused = errors.minPrice !== undefined || errors.maxPrice !== undefined;
  const problem =
    errors.minPrice !== undefined
      ? { box: 'min', message: errors.minPrice }
      : errors.maxPrice !== undefined
        ? { box: 'max', message: errors.maxPrice }
        : null;
  const box = (which: 'min' | 'max') => {
    const applied = which === 'min' ? query.minPrice : query.maxPrice;
    const openEnd = which === 'min' ? PRICE_FILTER_MIN_NAIRA : PRICE_FILTER_MAX_NAIRA;
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
          placeholder={formatNairaText(openEnd)}
          defaultValue={refused ? asTyped(which === 'min' ? priceText.min : priceText.max) : boxText(applied, openEnd)}
          data-price-box={which}
          data-applied={applied}
          data-open-end={openEnd}
          aria-invalid={problem?.box === which || undefined}
          aria-describedby={problem ? 'price-problem' : undefined}
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
