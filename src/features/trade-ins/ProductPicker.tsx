import { useEffect, useRef, useState } from 'react';
import { type UseFormReturn, useController } from 'react-hook-form';
import { formatNaira } from '../../lib/money.ts';
import { fetchProductPage } from '../catalogue/api-client.browser.ts';
import type { Product } from '../catalogue/product.ts';
import { described, FieldFrame, fieldMessage } from '../forms/Field.tsx';
import type { TradeInRequest } from './trade-in.ts';
import type { TradeInFormValues } from './trade-in-form.ts';

/**
 * A swap's product: a search box over the store's products (GET /api/products?q=), the
 * matches with their prices, and once one is chosen, its variant (if it has any) and price.
 */

type Search =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'done'; q: string; items: Product[]; total: number }
  | { state: 'failed' };

const SEARCH_DELAY_MS = 300;

export function chosenPrice(product: Product, variant: string): { amount: number; from: boolean } {
  const chosen = product.variants.find((v) => v.id === variant);
  if (chosen) return { amount: chosen.price, from: false };
  return { amount: product.price, from: product.variants.length > 1 };
}

export function ProductPicker({
  form,
  chosen,
  onChoose,
}: {
  form: UseFormReturn<TradeInFormValues, unknown, TradeInRequest>;
  chosen: Product | null;
  onChoose: (product: Product | null) => void;
}) {
  const { field, fieldState } = useController({ control: form.control, name: 'want.productId' });
  const [q, setQ] = useState('');
  const [search, setSearch] = useState<Search>({ state: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const variantRef = useRef<HTMLSelectElement | null>(null);
  const changeRef = useRef<HTMLButtonElement | null>(null);
  const focusAfterChoice = useRef(false);
  const variant = form.watch('want.variant');

  const runSearch = (text: string) => {
    controller.current?.abort();
    const query = text.trim();
    if (!query) {
      setSearch({ state: 'idle' });
      return;
    }
    const mine = new AbortController();
    controller.current = mine;
    setSearch({ state: 'searching' });
    fetchProductPage({ q: query }, mine.signal).then(
      (page) => {
        if (!mine.signal.aborted) setSearch({ state: 'done', q: query, items: page.items, total: page.total });
      },
      () => {
        if (!mine.signal.aborted) setSearch({ state: 'failed' });
      },
    );
  };

  // Typing searches after a pause; Enter or the button at once.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runSearch is new each render; q is what matters
  useEffect(() => {
    const timer = setTimeout(() => runSearch(q), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [q]);
  useEffect(() => () => controller.current?.abort(), []);

  // The button pressed to choose goes away with the list: focus what comes next.
  useEffect(() => {
    if (!focusAfterChoice.current || !chosen) return;
    focusAfterChoice.current = false;
    (variantRef.current ?? changeRef.current)?.focus();
  }, [chosen]);

  const choose = (product: Product | null) => {
    focusAfterChoice.current = product !== null;
    form.setValue('want.variant', product?.variants.length === 1 ? product.variants[0]!.id : '');
    field.onChange(product?.id ?? '');
    onChoose(product);
  };

  const productMessage = fieldState.error
    ? fieldState.error.type === 'server'
      ? fieldState.error.message
      : 'Please search for and choose the product you want'
    : undefined;
  const variantMessage = fieldMessage(form, 'want.variant');

  if (chosen) {
    const price = chosenPrice(chosen, variant);
    const variantLabel = chosen.variantLabel || 'Option';
    return (
      <div className="product-picker product-picker--chosen">
        <div className="product-picker__chosen">
          <img src={chosen.image} alt="" width={64} height={64} loading="lazy" />
          <div>
            <p className="product-picker__label muted">You want</p>
            <p className="product-picker__name" data-testid="swap-product">
              <strong>{chosen.name}</strong>
            </p>
            <p className="product-picker__price" data-testid="swap-price">
              {price.from ? 'From ' : 'Price now: '}
              <strong>{formatNaira(price.amount)}</strong>
            </p>
          </div>
        </div>
        {chosen.variants.length > 1 && (
          <FieldFrame id="trade-in-variant" label={variantLabel} message={variantMessage}>
            <select
              id="trade-in-variant"
              className="input"
              {...form.register('want.variant')}
              ref={(element) => {
                form.register('want.variant').ref(element);
                variantRef.current = element;
              }}
              {...described('trade-in-variant', undefined, variantMessage)}
            >
              <option value="">Choose the {variantLabel.toLowerCase()}</option>
              {chosen.variants.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.label} · {formatNaira(v.price)}
                  {v.inStock ? '' : ' (out of stock now)'}
                </option>
              ))}
            </select>
          </FieldFrame>
        )}
        {productMessage && <p className="field-error">{productMessage}</p>}
        <button type="button" className="btn btn-outline" ref={changeRef} onClick={() => choose(null)}>
          Choose another product
        </button>
      </div>
    );
  }

  return (
    <div className="product-picker">
      <FieldFrame id="trade-in-product-search" label="Search for the product you want" message={productMessage}>
        <div className="product-picker__search">
          <input
            id="trade-in-product-search"
            className="input"
            type="search"
            value={q}
            placeholder="e.g. iPhone 15, PS5, Galaxy"
            autoComplete="off"
            maxLength={100}
            name={field.name}
            ref={field.ref}
            onBlur={field.onBlur}
            onChange={(event) => setQ(event.target.value)}
            onKeyDown={(event) => {
              // Enter searches; it must not send the whole trade-in form.
              if (event.key === 'Enter') {
                event.preventDefault();
                runSearch(q);
              }
            }}
            {...described('trade-in-product-search', undefined, productMessage)}
          />
          <button type="button" className="btn btn-outline" onClick={() => runSearch(q)}>
            Search
          </button>
        </div>
      </FieldFrame>
      <p className="product-picker__status muted" role="status">
        {search.state === 'searching'
          ? 'Searching…'
          : search.state === 'failed'
            ? 'We could not search just now. Please try again.'
            : search.state === 'done'
              ? search.items.length === 0
                ? `No products match “${search.q}”.`
                : search.total > search.items.length
                  ? `The first ${search.items.length} of ${search.total} matches. Type more to narrow them down.`
                  : `${search.items.length} ${search.items.length === 1 ? 'product matches' : 'products match'}.`
              : ''}
      </p>
      {search.state === 'done' && search.items.length > 0 && (
        <ul className="product-picker__results" aria-label="Matching products">
          {search.items.map((product) => (
            <li key={product.id} className="product-picker__result">
              <img src={product.image} alt="" width={48} height={48} loading="lazy" />
              <span className="product-picker__result-text">
                <span>{product.name}</span>
                <span className="muted">
                  {product.variants.length > 1 ? 'From ' : ''}
                  {formatNaira(product.price)}
                  {product.inStock ? '' : ' · out of stock now'}
                </span>
              </span>
              <button
                type="button"
                className="btn btn-outline"
                aria-label={`Choose ${product.name}`}
                onClick={() => choose(product)}
              >
                Choose
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
