import { Star } from 'lucide-react';
import { type Ref, useId } from 'react';

interface Props {
  /** What is rated, for the group's name: "Your rating of {product}". */
  label: string;
  value: number | undefined;
  onChange: (rating: number) => void;
  onBlur?: () => void;
  /** The chosen radio (the first when none is), for focusing the group. */
  ref?: Ref<HTMLInputElement>;
  error?: string;
}

const WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'] as const;

/**
 * A 1-5 rating as a native radio group (arrow keys move and choose, Tab leaves), drawn
 * as stars: each radio is labelled "N stars" and the stars up to the choice are filled.
 */
export function StarRating({ label, value, onChange, onBlur, ref, error }: Props) {
  const name = useId();
  const errorId = `${name}-error`;
  return (
    <fieldset className="stars" aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="stars__legend">{label}</legend>
      <div className="stars__options">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={`stars__option${value !== undefined && n <= value ? ' stars__option--on' : ''}`}>
            <input
              type="radio"
              className="stars__input"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              onBlur={onBlur}
              ref={n === (value ?? 1) ? ref : undefined}
            />
            <Star size={28} aria-hidden="true" />
            <span className="visually-hidden">
              {n} {n === 1 ? 'star' : 'stars'}
            </span>
          </label>
        ))}
        <span className="stars__word" aria-hidden="true">
          {value ? WORDS[value] : ''}
        </span>
      </div>
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
