import { ApiRequestError } from '../../lib/api-client.browser.ts';
import { formatNaira } from '../../lib/money.ts';
import { loadSession } from '../account/session.browser.ts';
import type { Product } from '../catalogue/product.ts';
import { offerEmailSuggestion } from '../forms/email-suggestion.browser.ts';
import { showFieldMessage } from '../forms/field-messages.browser.ts';
import { formatNigerianPhone } from '../orders/nigeria.ts';
import { isOffline } from '../pwa/connection.browser.ts';
import { type PreparedPhoto, preparePhoto } from './photos.browser.ts';
import { TRADE_IN_FIELD_ORDER, type TradeInField, type TradeInFormValues, tradeInFieldOf } from './trade-in-form.ts';
import { MAX_TRADE_IN_PHOTOS } from './trade-in-rules.ts';

/**
 * /sell-or-swap's form (TradeInForm.astro), made to work by a plain script (decision 004):
 *
 * - it checks the form with the schema the Worker validates with (`tradeInRequestSchema`, with
 *   zod: loaded with the API client when the shopper first turns to the form, not with the
 *   page), each field's message under it and focus on the first in the form's order;
 * - photos are checked and made smaller as they are chosen (photos.browser.ts), shown with a
 *   Remove button;
 * - "A swap" opens a search of the store's products (GET /api/products?q=, after a pause or on
 *   Enter) to choose the one wanted, then its variant, with its price now;
 * - a signed-in shopper's contact details start from their profile;
 * - it sends the request with its photos (multipart) and shows the reference, or puts the
 *   Worker's field issues on the fields.
 *
 * The form says it is ready with `data-ready` (and its fieldset is enabled then).
 */

const SEND_FAILED = 'We could not send your request just now. Please try again.';
const CHECK_FIELDS = 'Please check the fields marked above.';
const OFFLINE = 'You are offline. Sending your request needs a connection: your answers stay here until you are back online.';
const CHOOSE_PRODUCT = 'Please search for and choose the product you want';
const SEARCH_DELAY_MS = 300;

/** What sending needs: the Worker's schema, the API client and the store of requests sent from this browser. */
const loadSending = (() => {
  let loading:
    | Promise<
        [typeof import('./trade-in.ts'), typeof import('./api-client.browser.ts'), typeof import('./trade-in-store.browser.ts')]
      >
    | undefined;
  return () => {
    loading ??= Promise.all([import('./trade-in.ts'), import('./api-client.browser.ts'), import('./trade-in-store.browser.ts')]);
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
})();

/** The price the shopper sees for a product and the variant chosen: the variant's, else the product's ("from" with several). */
function chosenPrice(product: Product, variant: string): { amount: number; from: boolean } {
  const chosen = product.variants.find((v) => v.id === variant);
  if (chosen) return { amount: chosen.price, from: false };
  return { amount: product.price, from: product.variants.length > 1 };
}

function tradeInForm(form: HTMLFormElement) {
  const fieldset = form.querySelector('fieldset')!;
  const message = form.querySelector<HTMLElement>('.form-message')!;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const photoInput = form.querySelector<HTMLInputElement>('#trade-in-photos')!;
  const photoList = form.querySelector<HTMLUListElement>('.photo-picker__list')!;
  const picker = form.querySelector<HTMLElement>('[data-product-picker]')!;
  const search = form.querySelector<HTMLInputElement>('#trade-in-product-search')!;
  const results = picker.querySelector<HTMLUListElement>('.product-picker__results')!;
  const status = picker.querySelector<HTMLElement>('[data-picker-status]')!;
  const chosenView = picker.querySelector<HTMLElement>('[data-picker-chosen]')!;
  const productId = form.querySelector<HTMLInputElement>('input[name="want.productId"]')!;
  // Read with instanceof, not querySelector<T>: the Worker's types (astro check) disagree on HTMLSelectElement.
  const variantFound = form.querySelector('#trade-in-variant');
  if (!(variantFound instanceof HTMLSelectElement)) return;
  const variantSelect = variantFound;
  const variantField = picker.querySelector<HTMLElement>('[data-variant-field]')!;
  const chosenProblem = picker.querySelector<HTMLElement>('[data-chosen-problem]')!;

  let photos: PreparedPhoto[] = [];
  let preparing = 0;
  /** What the photo input says: its own checks, then the Worker's. */
  let photoProblems: string[] = [];
  let serverPhotoProblem = '';
  let chosen: Product | null = null;
  let found: Product[] = [];
  let searching: AbortController | undefined;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Fields the shopper typed into: the profile does not overwrite them. */
  const typed = new Set<string>();

  const control = (field: TradeInField) => form.querySelector<HTMLElement>(`[data-field="${field}"]`);

  // ── The form's values and its messages ─────────────────────────────────────────────────

  function values(): TradeInFormValues {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '');
    const answer = (name: string) => (data.get(name) === 'true' ? true : data.get(name) === 'false' ? false : null);
    return {
      device: {
        category: text('device.category'),
        brand: text('device.brand'),
        model: text('device.model'),
        storage: text('device.storage'),
      },
      condition: {
        turnsOn: answer('condition.turnsOn'),
        screenCracked: answer('condition.screenCracked'),
        bodyDents: answer('condition.bodyDents'),
        accountRemoved: answer('condition.accountRemoved'),
        originalBox: answer('condition.originalBox'),
        batteryHealth: text('condition.batteryHealth') as TradeInFormValues['condition']['batteryHealth'],
        notes: text('condition.notes'),
      },
      want: {
        kind: text('want.kind') as TradeInFormValues['want']['kind'],
        productId: text('want.productId'),
        variant: text('want.variant'),
      },
      contact: {
        name: text('contact.name'),
        email: text('contact.email'),
        phone: text('contact.phone'),
        state: text('contact.state'),
      },
    };
  }

  /** Each field's message (none clears it), focusing the first in the form's order when `focus`. */
  function showProblems(problems: ReadonlyMap<TradeInField, string>, focus: boolean) {
    let first: HTMLElement | null = null;
    for (const field of TRADE_IN_FIELD_ORDER) {
      const text = problems.get(field);
      const target = field === 'photos' ? photoInput : control(field);
      if (field === 'photos') {
        serverPhotoProblem = text ?? '';
        showPhotoProblems();
      } else if (field === 'want.productId' && chosen) {
        // The product chosen was refused (gone from sale): said under it.
        chosenProblem.textContent = text ?? '';
        chosenProblem.hidden = !text;
      } else if (target instanceof HTMLFieldSetElement) {
        showFieldMessage(target, text, { id: target.dataset.id, frame: target });
      } else if (target) {
        showFieldMessage(target, text);
      }
      if (!text || first) continue;
      first =
        target instanceof HTMLFieldSetElement
          ? form.querySelector<HTMLElement>(`#${target.dataset.id}`)
          : field === 'want.productId' && chosen
            ? chosenView.querySelector<HTMLElement>('[data-picker-change]')
            : target;
    }
    if (focus) first?.focus();
  }

  // ── Photos ─────────────────────────────────────────────────────────────────────────────

  function showPhotoProblems() {
    const box = form.querySelector<HTMLElement>('#trade-in-photos-error')!;
    const all = [...photoProblems, ...(serverPhotoProblem ? [serverPhotoProblem] : [])];
    box.replaceChildren(
      ...all.map((problem) => {
        const text = document.createElement('p');
        text.className = 'field-error';
        text.textContent = problem;
        return text;
      }),
    );
    photoInput.setAttribute(
      'aria-describedby',
      all.length ? 'trade-in-photos-hint trade-in-photos-error' : 'trade-in-photos-hint',
    );
    if (all.length) photoInput.setAttribute('aria-invalid', 'true');
    else photoInput.removeAttribute('aria-invalid');
  }

  function showPhotos() {
    const room = MAX_TRADE_IN_PHOTOS - photos.length - preparing;
    photoInput.disabled = room <= 0;
    const count = form.querySelector<HTMLElement>('[data-photo-count]')!;
    count.textContent =
      preparing > 0
        ? 'Preparing your photos…'
        : `${photos.length} of ${MAX_TRADE_IN_PHOTOS} photos added${photos.length === MAX_TRADE_IN_PHOTOS ? ' (the most you can send)' : ''}.`;
    const placeholder = form.querySelector<HTMLTemplateElement>('template[data-photo-placeholder]')!;
    photoList.replaceChildren(
      ...photos.map((photo, index) => {
        const item = document.createElement('li');
        item.className = 'photo-picker__item';
        if (photo.thumbnail) {
          const image = document.createElement('img');
          image.src = photo.thumbnail;
          image.alt = photo.name;
          image.width = 96;
          image.height = 96;
          item.appendChild(image);
        } else {
          const stand = placeholder.content.firstElementChild!.cloneNode(true) as HTMLElement;
          stand.setAttribute('aria-label', photo.name);
          item.appendChild(stand);
        }
        const name = document.createElement('span');
        name.className = 'photo-picker__name';
        name.textContent = photo.name;
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.className = 'btn btn-outline photo-picker__remove';
        remove.setAttribute('aria-label', `Remove photo ${index + 1}`);
        remove.textContent = 'Remove';
        remove.dataset.removePhoto = photo.id;
        item.appendChild(name);
        item.appendChild(remove);
        return item;
      }),
    );
    photoList.hidden = photos.length === 0;
  }

  async function addPhotos(files: File[]) {
    const room = MAX_TRADE_IN_PHOTOS - photos.length - preparing;
    const problems: string[] = [];
    const taken = files.slice(0, Math.max(0, room));
    if (files.length > taken.length) {
      problems.push(
        `You can send up to ${MAX_TRADE_IN_PHOTOS} photos: ${taken.length === 0 ? 'remove one to add another' : `we kept the first ${taken.length} you chose`}.`,
      );
    }
    preparing += taken.length;
    showPhotos();
    const prepared = await Promise.all(taken.map((file) => preparePhoto(file)));
    preparing -= taken.length;
    for (const result of prepared) {
      if ('photo' in result) photos.push(result.photo);
      else problems.push(result.problem);
    }
    photos = photos.slice(0, MAX_TRADE_IN_PHOTOS);
    photoProblems = problems;
    serverPhotoProblem = '';
    showPhotos();
    showPhotoProblems();
  }

  // ── The swap's product ─────────────────────────────────────────────────────────────────

  function showPicker() {
    picker.hidden = form.querySelector<HTMLInputElement>('input[name="want.kind"]:checked')?.value !== 'swap';
  }

  function showStatus(text: string) {
    status.textContent = text;
  }

  async function runSearch(text: string) {
    clearTimeout(searchTimer);
    searching?.abort();
    const q = text.trim();
    if (!q) {
      showStatus('');
      results.hidden = true;
      return;
    }
    const mine = new AbortController();
    searching = mine;
    showStatus('Searching…');
    try {
      const { fetchProductPage } = await import('../catalogue/api-client.browser.ts');
      const page = await fetchProductPage({ q }, mine.signal);
      if (mine.signal.aborted) return;
      found = page.items;
      showStatus(
        found.length === 0
          ? `No products match “${q}”.`
          : page.total > found.length
            ? `The first ${found.length} of ${page.total} matches. Type more to narrow them down.`
            : `${found.length} ${found.length === 1 ? 'product matches' : 'products match'}.`,
      );
      showResults();
    } catch {
      if (!mine.signal.aborted) showStatus('We could not search just now. Please try again.');
    }
  }

  function showResults() {
    results.replaceChildren(
      ...found.map((product, index) => {
        const item = document.createElement('li');
        item.className = 'product-picker__result';
        const image = document.createElement('img');
        Object.assign(image, { src: product.image, alt: '', width: 48, height: 48, loading: 'lazy' });
        const text = document.createElement('span');
        text.className = 'product-picker__result-text';
        const name = document.createElement('span');
        name.textContent = product.name;
        const price = document.createElement('span');
        price.className = 'muted product-picker__price';
        price.textContent = `${product.variants.length > 1 ? 'From ' : ''}${formatNaira(product.price)}${product.inStock ? '' : ' · out of stock now'}`;
        text.appendChild(name);
        text.appendChild(price);
        const choose = document.createElement('button');
        choose.type = 'button';
        choose.className = 'btn btn-outline';
        choose.setAttribute('aria-label', `Choose ${product.name}`);
        choose.textContent = 'Choose';
        choose.dataset.chooseProduct = String(index);
        item.appendChild(image);
        item.appendChild(text);
        item.appendChild(choose);
        return item;
      }),
    );
    results.hidden = found.length === 0;
  }

  function showChosenPrice() {
    if (!chosen) return;
    const price = chosenPrice(chosen, variantSelect.value);
    chosenView.querySelector('[data-chosen-price-label]')!.textContent = price.from ? 'From ' : 'Price now: ';
    chosenView.querySelector('[data-chosen-price]')!.textContent = formatNaira(price.amount);
  }

  /** Chooses a product (or none: back to the search), with focus on what comes next. */
  function choose(product: Product | null) {
    chosen = product;
    productId.value = product?.id ?? '';
    const label = product?.variantLabel || 'Option';
    variantSelect.replaceChildren();
    const options =
      product && product.variants.length > 1
        ? [
            new Option(`Choose the ${label.toLowerCase()}`, ''),
            ...product.variants.map(
              (v) => new Option(`${v.label} · ${formatNaira(v.price)}${v.inStock ? '' : ' (out of stock now)'}`, v.id),
            ),
          ]
        : product?.variants.length === 1
          ? [new Option(product.variants[0]!.label, product.variants[0]!.id)]
          : [];
    for (const option of options) variantSelect.appendChild(option);
    variantField.hidden = !product || product.variants.length <= 1;
    picker.querySelector('[data-variant-label]')!.textContent = label;
    const variantControl = control('want.variant');
    if (variantControl) showFieldMessage(variantControl, undefined);
    showFieldMessage(search, undefined);
    chosenProblem.hidden = true;
    picker.querySelector<HTMLElement>('[data-picker-search]')!.hidden = product !== null;
    chosenView.hidden = product === null;
    if (product) {
      const image = chosenView.querySelector<HTMLImageElement>('[data-chosen-image]')!;
      image.src = product.image;
      chosenView.querySelector('[data-chosen-name]')!.textContent = product.name;
      showChosenPrice();
      (variantField.hidden ? chosenView.querySelector<HTMLElement>('[data-picker-change]') : variantSelect)?.focus();
    } else {
      search.focus();
    }
  }

  // ── Sending ────────────────────────────────────────────────────────────────────────────

  function busy(working: boolean) {
    submit.dataset.idleText ??= submit.textContent ?? '';
    submit.disabled = working;
    submit.textContent = working ? (submit.dataset.busyText ?? '') : submit.dataset.idleText;
  }

  /** What is wrong with the form as it stands, field by field (the schema's first word on each). */
  function problemsOf(
    schema: Awaited<ReturnType<typeof loadSending>>[0]['tradeInRequestSchema'],
    typedValues: TradeInFormValues,
  ) {
    const checked = schema.safeParse(typedValues);
    const problems = new Map<TradeInField, string>();
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = tradeInFieldOf(issue.path.join('.'));
        if (field && !problems.has(field)) problems.set(field, field === 'want.productId' ? CHOOSE_PRODUCT : issue.message);
      }
    }
    // A product with variants needs one chosen (the schema cannot know the product's variants).
    if (typedValues.want.kind === 'swap' && chosen && chosen.variants.length > 1 && !typedValues.want.variant) {
      problems.set('want.variant', `Please choose the ${(chosen.variantLabel || 'option').toLowerCase()} you want`);
    }
    return { checked, problems };
  }

  /** A send refused for the fields' sake: from then on each change checks the form again. */
  let sentWithProblems = false;

  /**
   * After a refused send, a field put right loses its message (and its invalid mark) as the
   * shopper fixes it, rather than at the next press of the button; focus stays where it is.
   */
  async function checkAgain() {
    if (!sentWithProblems) return;
    let modules: Awaited<ReturnType<typeof loadSending>>;
    try {
      modules = await loadSending();
    } catch {
      return;
    }
    const { problems } = problemsOf(modules[0].tradeInRequestSchema, values());
    showProblems(problems, false);
    if (problems.size === 0 && message.textContent === CHECK_FIELDS) message.textContent = '';
  }

  async function send() {
    message.textContent = '';
    let modules: Awaited<ReturnType<typeof loadSending>>;
    try {
      modules = await loadSending();
    } catch {
      message.textContent = isOffline() ? OFFLINE : SEND_FAILED;
      return;
    }
    const [{ tradeInRequestSchema }, { submitTradeIn }, { rememberTradeIn }] = modules;
    const typedValues = values();
    const { checked, problems } = problemsOf(tradeInRequestSchema, typedValues);
    showProblems(problems, true);
    if (problems.size > 0 || !checked.success) {
      sentWithProblems = true;
      message.textContent = CHECK_FIELDS;
      return;
    }
    if (isOffline()) {
      message.textContent = OFFLINE;
      return;
    }
    busy(true);
    try {
      const tradeIn = await submitTradeIn(
        checked.data,
        photos.map((photo) => ({ blob: photo.blob, name: photo.name })),
      );
      rememberTradeIn(tradeIn.reference, tradeIn.contact.email);
      showDone(tradeIn.reference, tradeIn.contact.email);
    } catch (error) {
      if (!(error instanceof ApiRequestError) || error.code === 'network' || error.status >= 500) {
        // 503 `busy`: too many photos arriving at once; its message says how long to wait.
        message.textContent = error instanceof ApiRequestError && error.code === 'busy' ? error.message : SEND_FAILED;
        return;
      }
      // The Worker's issues onto the fields; the rest in the message.
      const placed = new Map<TradeInField, string>();
      const rest: string[] = [];
      for (const issue of error.issues) {
        const field = tradeInFieldOf(issue.field);
        if (field) placed.set(field, placed.get(field) ?? issue.message);
        else rest.push(issue.message);
      }
      if (!error.issues.length) rest.push(error.message);
      // The Worker's word (a photo refused, a product gone from sale) stands until the next send:
      // the form's own checks cannot know it, so they must not clear it as the shopper types.
      sentWithProblems = false;
      showProblems(placed, true);
      message.textContent = rest.length ? rest.join(' ') : CHECK_FIELDS;
    } finally {
      busy(false);
    }
  }

  /** The reference and the way to the status page, in the form's place; "Send another request" brings back an empty form. */
  function showDone(reference: string, email: string) {
    const template = document.querySelector<HTMLTemplateElement>('template[data-trade-in-done]')!;
    const done = template.content.firstElementChild!.cloneNode(true) as HTMLElement;
    done.querySelector('[data-done-reference]')!.textContent = reference;
    done.querySelector('[data-done-email]')!.textContent = email;
    done.querySelector<HTMLAnchorElement>('[data-done-status]')!.href =
      `/sell-or-swap/status?ref=${encodeURIComponent(reference)}`;
    done.querySelector('[data-done-again]')!.addEventListener('click', () => {
      form.reset();
      photos = [];
      photoProblems = [];
      serverPhotoProblem = '';
      found = [];
      results.replaceChildren();
      results.hidden = true;
      showStatus('');
      choose(null);
      showProblems(new Map(), false);
      showPhotos();
      showPhotoProblems();
      showPicker();
      done.replaceWith(form);
      form.querySelector<HTMLElement>('#trade-in-category')?.focus();
    });
    form.replaceWith(done);
    // Brought to the top of the screen, then focused: the form it replaces was much taller, and
    // WebKit's focus alone left a phone's view on the footer, the reference far above it.
    done.scrollIntoView({ block: 'start' });
    done.focus({ preventScroll: true });
  }

  /** A signed-in shopper's name, e-mail, phone and state from their profile, where nothing was typed yet (nor is being typed). */
  async function fillFromProfile() {
    const { user } = await loadSession();
    if (!user) return;
    const [{ callApi }, { accountApi }] = await Promise.all([
      import('../../lib/api-client.browser.ts'),
      import('../account/account-api.ts'),
    ]);
    const { profile } = await callApi(accountApi.profile);
    const saved: Record<string, string> = {
      'contact.name': profile.name ?? '',
      'contact.email': profile.email,
      'contact.phone': profile.phone ? formatNigerianPhone(profile.phone) : '',
      'contact.state': profile.state ?? '',
    };
    for (const [name, value] of Object.entries(saved)) {
      const field = form.querySelector(`[name="${name}"]`);
      if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement)) continue;
      // Not into the field the shopper is in: a name arriving as they start typing would run into theirs.
      if (value && !field.value && !typed.has(name) && document.activeElement !== field) field.value = value;
    }
  }

  // ── Events ─────────────────────────────────────────────────────────────────────────────

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!submit.disabled) void send();
  });

  form.addEventListener('input', (event) => {
    const target = event.target;
    if (target === search) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => void runSearch(search.value), SEARCH_DELAY_MS);
      return;
    }
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) {
      typed.add(target.name);
    }
    void checkAgain();
  });

  form.addEventListener('change', (event) => {
    const target = event.target;
    if (target === photoInput) {
      const files = Array.from(photoInput.files ?? []);
      // Emptied, so choosing the same file again (after removing it) is a change too.
      photoInput.value = '';
      if (files.length) void addPhotos(files);
    } else if (target instanceof HTMLInputElement && target.name === 'want.kind') {
      showPicker();
    } else if (target === variantSelect) {
      showChosenPrice();
    }
    if (target !== photoInput) void checkAgain();
  });

  search.addEventListener('keydown', (event) => {
    // Enter searches; it must not send the whole trade-in form.
    if (event.key === 'Enter') {
      event.preventDefault();
      void runSearch(search.value);
    }
  });

  form.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest<HTMLButtonElement>('button') : null;
    if (!button) return;
    if (button.matches('[data-picker-go]')) void runSearch(search.value);
    else if (button.matches('[data-picker-change]')) choose(null);
    else if (button.dataset.chooseProduct !== undefined) choose(found[Number(button.dataset.chooseProduct)] ?? null);
    else if (button.dataset.removePhoto) {
      photos = photos.filter((photo) => photo.id !== button.dataset.removePhoto);
      photoProblems = [];
      showPhotos();
      showPhotoProblems();
      photoInput.focus();
    }
  });

  // What sending needs, once the shopper turns to the form (not with the page).
  const prepare = () => void loadSending().catch(() => undefined);
  form.addEventListener('focusin', prepare, { once: true });
  form.addEventListener('pointerdown', prepare, { once: true });

  showPicker();
  const email = form.querySelector('input[name="contact.email"]');
  if (email instanceof HTMLInputElement) offerEmailSuggestion(email);
  fieldset.disabled = false;
  void fillFromProfile().catch(() => undefined);
  form.dataset.ready = '';
}

const form = document.querySelector<HTMLFormElement>('form[data-trade-in]');
if (form) tradeInForm(form);
