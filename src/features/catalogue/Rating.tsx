export function Rating({ rating, reviews }: { rating: number; reviews: number }) {
  return (
    <span className="rating">
      <span className="star" aria-hidden="true">
        ★
      </span>{' '}
      {rating.toFixed(1)}
      <span className="visually-hidden"> out of 5 stars,</span> ({reviews.toLocaleString('en-NG')}
      <span className="visually-hidden"> reviews</span>)
    </span>
  );
}
