import { categoryLabel, type CategoryId } from './categories.ts';
import { correctedSearchHref, listingHref } from './listing.ts';
import type { ProductQuery } from './search.ts';

interface Props {
  /** The query nothing was found for. */
  query: ProductQuery;
  /** The search text with its words corrected, when that search finds products (the API's `didYouMean`). */
  didYouMean?: string;
  /** The store's departments that have products, in menu order. */
  departments: readonly CategoryId[];
}

/**
 * What the listing shows when nothing matches, so a search never ends at a blank page: the
 * corrected search ("Did you mean …?", the same filters with the corrected text), Clear All,
 * and the departments to browse instead. All are links, so they work without JavaScript; the
 * listing's script follows them in place (Clear All becomes a button).
 */
export function NoResults({ query, didYouMean, departments }: Props) {
  return (
    <div className="empty card">
      <h2>No products found</h2>
      {didYouMean && (
        <p className="empty__suggestion">
          Did you mean <a href={correctedSearchHref(query, didYouMean)}>{didYouMean}</a>?
        </p>
      )}
      <p className="muted">Try a different search or fewer filters.</p>
      <a className="btn btn-outline" href="/products" data-in-place>
        Clear All
      </a>
      {departments.length > 0 && (
        <div className="empty__departments">
          <h3 id="browse-departments">Browse a department</h3>
          <ul className="chips" aria-labelledby="browse-departments">
            {departments.map((id) => (
              <li key={id}>
                <a className="chip" href={listingHref({ category: [id] })}>
                  {categoryLabel(id)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
