/**
 * A product's rating: its catalogue history with this store's own reviews added (weighted by
 * count, functions/catalogue/products.ts). Where the store's share is known (the product page), it
 * says how many of the reviews are from buyers here, so a shopper can tell the history from
 * what GTS customers said; the listing's cards stay compact.
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
      {/* Only when there is something to tell: the pre-rendered page (no share) and a product no GTS buyer
          rated yet read the same, so refreshing from the API does not move the line. */}
      {!fromStore ? (
        <>
          ({count}
          <span className="visually-hidden"> reviews</span>)
        </>
      ) : (
        <>
          ({count} {reviews === 1 ? 'review' : 'reviews'}, {fromStore.toLocaleString('en-NG')} from GTS buyers)
        </>
      )}
    </span>
  );
}
