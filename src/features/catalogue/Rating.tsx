/**
 * A product's rating: its catalogue history with this store's own reviews added (weighted by
 * count, functions/catalogue/products.ts). On the product page it says how many of the reviews
 * are from buyers here ("none yet" when all are the catalogue's history: the figures an admin
 * enters as the product's rating before GTS), so a shopper can tell the history from what GTS
 * customers said; the listing's cards stay compact.
 */
export function Rating({ rating, reviews, fromStore }: { rating: number; reviews: number; fromStore?: number | undefined }) {
  const count = reviews.toLocaleString('en-NG');
  // A new product nobody has rated: said in words, not as a zero score.
  if (reviews === 0) return <span className="rating">No reviews yet</span>;
  return (
    <span className="rating">
      <span className="star" aria-hidden="true">
        ★
      </span>{' '}
      {rating.toFixed(1)}
      <span className="visually-hidden"> out of 5 stars,</span>{' '}
      {/* The product page says whose reviews they are (none from buyers here: all the catalogue's
          history); the listing's cards (no share given) stay compact. */}
      {fromStore === undefined ? (
        <>
          ({count}
          <span className="visually-hidden"> reviews</span>)
        </>
      ) : (
        <>
          ({count} {reviews === 1 ? 'review' : 'reviews'},{' '}
          {fromStore === 0 ? 'none yet from GTS buyers' : `${fromStore.toLocaleString('en-NG')} from GTS buyers`})
        </>
      )}
    </span>
  );
}
