import { zodResolver } from '@hookform/resolvers/zod';
import { Star } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError, callApi } from '../../lib/api-client.browser.ts';
import { formatLagosTime } from '../../lib/time.ts';
import { showServerIssues } from '../forms/server-errors.browser.ts';
import { TextareaField } from '../forms/Field.tsx';
import { accountApi, type Review, type reviewableSchema, type SaveReviewRequest, saveReviewSchema } from './account-api.ts';
import { LoadedView } from '../loaded/LoadedView.tsx';
import { useLoaded } from '../loaded/use-loaded.browser.ts';
import { AccountShell } from './AccountShell.tsx';
import { StarRating } from './StarRating.tsx';
import { accountErrorMessage, accountLoadFailed } from './use-account.browser.ts';

type Reviewable = z.infer<typeof reviewableSchema>;
type SavedReview = z.output<typeof saveReviewSchema>;
interface Ratings {
  reviews: Review[];
  products: Reviewable[];
}
/** The product's rating and review count, as the last save answered them. */
interface ProductStats {
  id: string;
  rating: number;
  reviews: number;
}

/** /ratings: the reviews the user wrote (editable) and the products from delivered orders still to rate. */
export default function RatingsPage() {
  return (
    <AccountShell current="/ratings" purpose="rate what you bought">
      {() => <RatingsView />}
    </AccountShell>
  );
}

const loadRatings = (signal: AbortSignal): Promise<Ratings> =>
  Promise.all([callApi(accountApi.reviews, { signal }), callApi(accountApi.reviewable, { signal })]).then(([r, p]) => ({
    reviews: r.reviews,
    products: p.products,
  }));

const countText = (n: number) => `${n.toLocaleString('en-NG')} ${n === 1 ? 'review' : 'reviews'}`;

function RatingsView() {
  const { loaded, update, reload } = useLoaded(loadRatings, { errorMessage: accountLoadFailed });
  const [message, setMessage] = useState('');
  const [stats, setStats] = useState<Map<string, ProductStats>>(new Map());

  const saved = (review: Review, product: ProductStats) => {
    update((data) => ({
      reviews: [review, ...data.reviews.filter((r) => r.productId !== review.productId)],
      products: data.products.map((p) => (p.productId === review.productId ? { ...p, review } : p)),
    }));
    setStats((current) => new Map(current).set(product.id, product));
    setMessage(
      `Saved your ${review.rating}-star rating of ${review.productName}. It is now rated ${product.rating.toFixed(1)} from ${countText(product.reviews)}.`,
    );
  };

  return (
    <>
      <p className="account__saved" role="status">
        {message}
      </p>
      <LoadedView loaded={loaded} what="your ratings" retry={reload} look="account">
        {({ reviews, products }) => {
          const toRate = products.filter((p) => !p.review);
          return (
            <div className="account-ratings">
              <section aria-labelledby="to-rate-title">
                <h2 id="to-rate-title">To rate</h2>
                {toRate.length === 0 ? (
                  <p className="muted">
                    Nothing to rate right now. Products from your delivered orders appear here, so you can tell other shoppers how
                    they are.
                  </p>
                ) : (
                  <ul className="account-ratings__list">
                    {toRate.map((p) => (
                      <li key={p.productId}>
                        <article className="card account-rating" aria-labelledby={`rate-${p.productId}`}>
                          <ProductHead id={`rate-${p.productId}`} productId={p.productId} name={p.productName} image={p.image} />
                          <RatingForm productId={p.productId} productName={p.productName} onSaved={saved} />
                        </article>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              <section aria-labelledby="your-reviews-title">
                <h2 id="your-reviews-title">Your reviews</h2>
                {reviews.length === 0 ? (
                  <p className="muted">You have not rated anything yet.</p>
                ) : (
                  <ul className="account-ratings__list">
                    {reviews.map((r) => (
                      <li key={r.productId}>
                        <ReviewCard review={r} stats={stats.get(r.productId)} onSaved={saved} />
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
          );
        }}
      </LoadedView>
    </>
  );
}

function ProductHead({ id, productId, name, image }: { id: string; productId: string; name: string; image: string }) {
  return (
    <header className="account-rating__head">
      <img src={image} alt="" width={64} height={64} loading="lazy" />
      <h3 id={id}>
        <a href={`/product/${productId}`}>{name}</a>
      </h3>
    </header>
  );
}

function ReviewCard({
  review,
  stats,
  onSaved,
}: {
  review: Review;
  stats?: ProductStats;
  onSaved: (r: Review, p: ProductStats) => void;
}) {
  const [editing, setEditing] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const titleId = `review-${review.productId}`;
  const stopEditing = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  // Back to where the shopper was once the form is gone: the Edit button of this review.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editRef.current?.focus();
  }, [editing]);
  return (
    <article className="card account-rating" aria-labelledby={titleId}>
      <ProductHead id={titleId} productId={review.productId} name={review.productName} image={review.image} />
      {editing ? (
        <RatingForm
          productId={review.productId}
          productName={review.productName}
          review={review}
          onSaved={(r, p) => {
            onSaved(r, p);
            stopEditing();
          }}
          onCancel={stopEditing}
        />
      ) : (
        <>
          <p className="account-rating__stars">
            <span aria-hidden="true" className="account-rating__shown">
              {[1, 2, 3, 4, 5].map((n) => (
                <Star key={n} size={20} className={n <= review.rating ? 'star-on' : 'star-off'} />
              ))}
            </span>
            <span>
              You rated it {review.rating} out of 5 · <span className="muted">{formatLagosTime(review.updatedAt)}</span>
            </span>
          </p>
          {review.comment ? <p className="account-rating__comment">“{review.comment}”</p> : <p className="muted">No comment.</p>}
          {stats && (
            <p className="muted">
              Product rating: {stats.rating.toFixed(1)} from {countText(stats.reviews)}
            </p>
          )}
          <p>
            <button type="button" className="btn btn-outline" ref={editRef} onClick={() => setEditing(true)}>
              Edit review<span className="visually-hidden"> of {review.productName}</span>
            </button>
          </p>
        </>
      )}
    </article>
  );
}

interface RatingFormProps {
  productId: string;
  productName: string;
  review?: Review;
  onSaved: (review: Review, product: ProductStats) => void;
  onCancel?: () => void;
}

function RatingForm({ productId, productName, review, onSaved, onCancel }: RatingFormProps) {
  const form = useForm<SaveReviewRequest, unknown, SavedReview>({
    resolver: zodResolver(saveReviewSchema),
    defaultValues: { productId, rating: review?.rating, comment: review?.comment ?? '' },
    shouldFocusError: true,
  });
  const [problem, setProblem] = useState('');
  const commentId = useId();
  const busy = form.formState.isSubmitting;

  // Editing starts on the rating the shopper gave.
  useEffect(() => {
    if (review) form.setFocus('rating');
  }, [review, form]);

  const submit = form.handleSubmit(async (values) => {
    setProblem('');
    try {
      const answer = await callApi(accountApi.saveReview, { body: values });
      onSaved(answer.review, answer.product);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 400) {
        const rest = showServerIssues(form, error.issues);
        if (rest.length) setProblem(rest.map((i) => i.message).join(' '));
        return;
      }
      setProblem(accountErrorMessage(error, 'We could not save your rating. Please try again.'));
    }
  });

  return (
    <form className="account-rating__form" onSubmit={submit} noValidate>
      <Controller
        control={form.control}
        name="rating"
        render={({ field, fieldState }) => (
          <StarRating
            label={`Your rating of ${productName}`}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            error={fieldState.error?.message}
          />
        )}
      />
      <TextareaField form={form} name="comment" id={commentId} label="Comment (optional)" rows={3} maxLength={500} />
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <div className="account__actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : review ? 'Save changes' : 'Save rating'}
          <span className="visually-hidden"> for {productName}</span>
        </button>
        {onCancel && (
          <button type="button" className="btn btn-outline" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
