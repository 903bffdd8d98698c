import { ImageIcon } from 'lucide-react';
import { type Ref, useState } from 'react';
import { FileField } from '../forms/Field.tsx';
import { MAX_PHOTO_BYTES, MAX_TRADE_IN_PHOTOS, PHOTO_TYPES } from './trade-in.ts';
import { type PreparedPhoto, preparePhoto } from './photos.browser.ts';

/**
 * Up to MAX_TRADE_IN_PHOTOS photos of the device: each is checked and, when large, made
 * smaller here as it is chosen (photos.browser.ts), then shown as a thumbnail with a Remove
 * button. Problems are listed under the input; `serverProblem` is the API's word on them.
 */
export function PhotoPicker({
  photos,
  onChange,
  serverProblem,
  inputRef,
  disabled,
}: {
  photos: readonly PreparedPhoto[];
  onChange: (change: (photos: readonly PreparedPhoto[]) => readonly PreparedPhoto[]) => void;
  serverProblem: string;
  inputRef: Ref<HTMLInputElement>;
  disabled: boolean;
}) {
  const [problems, setProblems] = useState<string[]>([]);
  const [preparing, setPreparing] = useState(0);
  const room = MAX_TRADE_IN_PHOTOS - photos.length - preparing;

  const add = async (files: File[]) => {
    const found: string[] = [];
    const taken = files.slice(0, Math.max(0, room));
    if (files.length > taken.length)
      found.push(
        `You can send up to ${MAX_TRADE_IN_PHOTOS} photos: ${taken.length === 0 ? 'remove one to add another' : `we kept the first ${taken.length} you chose`}.`,
      );
    setPreparing((n) => n + taken.length);
    const results = await Promise.all(taken.map((file) => preparePhoto(file)));
    setPreparing((n) => n - taken.length);
    const ready: PreparedPhoto[] = [];
    for (const result of results) {
      if ('photo' in result) ready.push(result.photo);
      else found.push(result.problem);
    }
    setProblems(found);
    if (ready.length) onChange((current) => [...current, ...ready].slice(0, MAX_TRADE_IN_PHOTOS));
  };

  const shown = [...problems, ...(serverProblem ? [serverProblem] : [])];
  return (
    <div className="photo-picker">
      <FileField
        id="trade-in-photos"
        label="Add photos"
        hint={`Up to ${MAX_TRADE_IN_PHOTOS} photos (JPEG, PNG or WebP, ${Math.round(MAX_PHOTO_BYTES / 1024 / 1024)} MB each): the front, the back and any damage. Large photos are made smaller before sending.`}
        problems={shown}
        inputRef={inputRef}
        className="photo-picker__input"
        accept={PHOTO_TYPES.join(',')}
        multiple
        disabled={disabled || room <= 0}
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Empty it, so choosing the same file again (after removing it) is a change too.
          event.target.value = '';
          if (files.length) void add(files);
        }}
      >
        <p className="photo-picker__count muted" aria-live="polite">
          {preparing > 0
            ? 'Preparing your photos…'
            : `${photos.length} of ${MAX_TRADE_IN_PHOTOS} photos added${photos.length === MAX_TRADE_IN_PHOTOS ? ' (the most you can send)' : ''}.`}
        </p>
      </FileField>
      {photos.length > 0 && (
        <ul className="photo-picker__list" aria-label="Your photos">
          {photos.map((photo, index) => (
            <li key={photo.id} className="photo-picker__item">
              {photo.thumbnail ? (
                <img src={photo.thumbnail} alt={photo.name} width={96} height={96} />
              ) : (
                <span className="photo-picker__placeholder" role="img" aria-label={photo.name}>
                  <ImageIcon size={32} aria-hidden="true" />
                </span>
              )}
              <span className="photo-picker__name">{photo.name}</span>
              <button
                type="button"
                className="btn btn-outline photo-picker__remove"
                aria-label={`Remove photo ${index + 1}`}
                onClick={() => {
                  setProblems([]);
                  onChange((current) => current.filter((p) => p.id !== photo.id));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
