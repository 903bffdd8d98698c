import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Plus, Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import { type Resolver, type UseFormReturn, useFieldArray, useForm, useWatch } from 'react-hook-form';
import { ApiRequestError } from '../../../lib/api-client.browser.ts';
import { readErrorBody } from '../../../lib/api-error.ts';
import { typedNaira } from '../../../lib/money.ts';
import { BRANDS } from '../brands.ts';
import { CATEGORIES } from '../categories.ts';
import type { ProductInputDraft } from '../product.ts';
import { CheckboxField, SelectField, TextareaField, TextField } from '../../forms/Field.tsx';
import { showServerIssues } from '../../forms/server-errors.browser.ts';
import { LoadedView } from '../../loaded/LoadedView.tsx';
import { useLoaded } from '../../loaded/use-loaded.browser.ts';
import { notify } from '../../toast/notify.browser.ts';
import {
  adminProductApi,
  type AdminProductDetail,
  type AdminProductInput,
  type AdminProductInputDraft,
  createProductSchema,
  uploadedImageSchema,
} from './admin-product-api.ts';
import { AuditTrail } from '../../admin/History.tsx';
import { FormProblem } from '../../admin/FormProblem.tsx';
import { ScreenHeading } from '../../admin/admin-router.tsx';
import { $adminDenied, adminCall, adminErrorMessage, adminLoadFailed, refusedAccess } from '../../admin/use-admin.browser.ts';

/**
 * The product form: add a product (`productId` null) or edit one. Validated in the browser
 * with `productInputSchema`, the schema the Worker validates the same body with; prices are
 * typed in naira. The form holds what the inputs hold (text); `toInput` turns it into the
 * schema's input (numbers, absent optional fields, and only the price and stock that apply:
 * the product's own without variants, each variant's with them).
 */
export function ProductForm({ productId, onClose }: { productId: string | null; onClose: () => void }) {
  if (productId === null) return <ProductEditor detail={null} onClose={onClose} />;
  return <EditProduct productId={productId} onClose={onClose} />;
}

function EditProduct({ productId, onClose }: { productId: string; onClose: () => void }) {
  const { loaded, reload } = useLoaded((signal) => adminCall(adminProductApi.product, { params: { id: productId }, signal }), {
    key: `product:${productId}`,
    errorMessage: adminLoadFailed,
  });
  // Someone saved it meanwhile: the message outlives the form, which starts again from the new version.
  const [conflict, setConflict] = useState<string | null>(null);
  return (
    <LoadedView loaded={loaded} what="the product" retry={reload} look="admin">
      {(detail) => (
        <ProductEditor
          key={detail.version}
          detail={detail}
          onClose={onClose}
          conflict={conflict}
          onConflict={(message) => {
            setConflict(message);
            reload();
          }}
        />
      )}
    </LoadedView>
  );
}

/**
 * What the stock field leaves out: the units unpaid orders hold, which come back into it if those
 * orders end. An admin who counts the shelf counts those too.
 */
function heldHint(held: number | undefined): string | undefined {
  if (!held) return undefined;
  return `${held} more ${held === 1 ? 'unit is' : 'units are'} held by unpaid orders: not counted here, and back in stock if those orders are cancelled or expire.`;
}

interface VariantRow {
  id: string;
  label: string;
  priceNaira: string;
  stock: string;
  image: string;
}

export interface ProductFormValues {
  id: string;
  name: string;
  brand: string;
  category: string;
  description: string;
  priceNaira: string;
  stock: string;
  image: string;
  variantLabel: string;
  featured: boolean;
  variants: VariantRow[];
  /** The rating history before this store (shoppers see it with the store's own reviews added). */
  catalogueRating: string;
  catalogueReviews: string;
}

const EMPTY: ProductFormValues = {
  id: '',
  name: '',
  brand: '',
  category: '',
  description: '',
  priceNaira: '',
  stock: '',
  image: '',
  variantLabel: '',
  featured: false,
  variants: [],
  catalogueRating: '',
  catalogueReviews: '',
};

const EMPTY_VARIANT: VariantRow = { id: '', label: '', priceNaira: '', stock: '', image: '' };

const text = (value: number | string | undefined) => (value === undefined ? '' : String(value));

/** The form's values for a saved product. */
function fromProduct({ form, catalogueRating, catalogueReviews }: AdminProductDetail): ProductFormValues {
  return {
    catalogueRating: text(catalogueRating),
    catalogueReviews: text(catalogueReviews),
    id: form.id ?? '',
    name: form.name,
    brand: form.brand,
    category: form.category,
    description: form.description,
    priceNaira: text(form.priceNaira),
    stock: text(form.stock),
    image: form.image,
    variantLabel: form.variantLabel ?? '',
    featured: form.featured,
    variants: form.variants.map((v) => ({
      id: v.id ?? '',
      label: v.label,
      priceNaira: text(v.priceNaira),
      stock: text(v.stock),
      image: v.image ?? '',
    })),
  };
}

const blank = (value: string) => (value.trim() === '' ? undefined : value);
/** A typed number ('' is "not given"; anything else not a number fails the schema's number check). */
const number = (value: string) => (value.trim() === '' ? undefined : Number(value));
/** A typed price: separators and ₦ allowed ("1,250,000"). */
const naira = (value: string) => typedNaira(value);

/** What the schema parses: the form's text as the API's body. */
export function toInput(values: ProductFormValues): AdminProductInputDraft {
  const hasVariants = values.variants.length > 0;
  return {
    catalogueRating: number(values.catalogueRating),
    catalogueReviews: number(values.catalogueReviews),
    id: blank(values.id),
    name: values.name,
    brand: values.brand as ProductInputDraft['brand'],
    category: values.category as ProductInputDraft['category'],
    description: values.description,
    image: values.image,
    featured: values.featured,
    priceNaira: hasVariants ? undefined : naira(values.priceNaira),
    stock: hasVariants ? undefined : number(values.stock),
    variantLabel: hasVariants ? blank(values.variantLabel) : undefined,
    variants: values.variants.map((v) => ({
      id: blank(v.id),
      label: v.label,
      priceNaira: naira(v.priceNaira) as number,
      stock: number(v.stock) as number,
      image: blank(v.image),
    })),
  };
}

const schemaResolver = zodResolver(createProductSchema);
/** zodResolver(createProductSchema), given the form's values as the schema's input. */
const resolver: Resolver<ProductFormValues, unknown, AdminProductInput> = (values, context, options) =>
  schemaResolver(toInput(values), context, options as never) as ReturnType<
    Resolver<ProductFormValues, unknown, AdminProductInput>
  >;

const BRAND_CHOICES = BRANDS.map((b) => ({ value: b, label: b }));
const CATEGORY_CHOICES = CATEGORIES.map((c) => ({ value: c.id, label: c.label }));

function ProductEditor({
  detail,
  onClose,
  conflict = null,
  onConflict,
}: {
  detail: AdminProductDetail | null;
  onClose: () => void;
  conflict?: string | null;
  onConflict?: (message: string) => void;
}) {
  const editing = detail !== null;
  const form = useForm<ProductFormValues, unknown, AdminProductInput>({
    resolver,
    defaultValues: detail ? fromProduct(detail) : EMPTY,
    shouldFocusError: true,
  });
  const variants = useFieldArray({ control: form.control, name: 'variants' });
  const hasVariants = variants.fields.length > 0;
  const [problem, setProblem] = useState<string | null>(conflict);
  const busy = form.formState.isSubmitting;

  const save = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const saved = detail
        ? await adminCall(adminProductApi.updateProduct, {
            params: { id: detail.id },
            body: { ...values, version: detail.version },
          })
        : await adminCall(adminProductApi.createProduct, { body: values });
      notify('success', detail ? `${saved.form.name} saved` : `${saved.form.name} added`);
      form.reset(fromProduct(saved));
      onClose();
    } catch (error) {
      if (error instanceof ApiRequestError && error.issues.length) {
        // At the fields: a variant's id is made from its label, so its problem shows at the label;
        // an edit has no id field (the id is fixed), so that one shows above the form.
        const rest = showServerIssues(form, error.issues, {
          rename: (field) => (editing && field === 'id' ? '' : field.replace(/^(variants\.\d+)\.id$/, '$1.label')),
        });
        const general = error.status === 400 ? 'Some fields need your attention.' : error.message;
        setProblem(rest.length ? rest.map((i) => `${i.field}: ${i.message}`).join(' ') : general);
        return;
      }
      if (error instanceof ApiRequestError && error.status === 409 && detail && onConflict) {
        // Someone saved it meanwhile (product_changed): load their version.
        onConflict(`${error.message} The form now shows the product as it was saved; make your change again.`);
        return;
      }
      setProblem(adminErrorMessage(error, 'The product could not be saved. Please try again.'));
    }
  });

  const cancel = () => {
    form.reset();
    onClose();
  };

  const addVariant = () => {
    // The first variant starts from the product's own price and stock, which variants replace.
    const first = variants.fields.length === 0;
    const values = form.getValues();
    variants.append(first ? { ...EMPTY_VARIANT, priceNaira: values.priceNaira, stock: values.stock } : EMPTY_VARIANT);
  };

  const title = detail ? `Edit ${detail.form.name}` : 'Add a product';
  return (
    <section className="admin-screen" aria-labelledby="admin-screen-title">
      <p>
        <button type="button" className="admin-back admin-linkish" onClick={cancel}>
          <ArrowLeft size={18} aria-hidden="true" /> All products
        </button>
      </p>
      <ScreenHeading id="admin-screen-title">{title}</ScreenHeading>
      {detail && !detail.active && <p className="admin-note">This product is archived: it is not on sale.</p>}
      {detail && (
        <p className="muted">
          /product/{detail.id} · rated {detail.rating.toFixed(1)} from {detail.reviews}{' '}
          {detail.reviews === 1 ? 'review' : 'reviews'}, {detail.reviews - detail.catalogueReviews} from GTS buyers
        </p>
      )}
      <form className="card admin-product-form" onSubmit={save} noValidate aria-labelledby="admin-screen-title">
        <FormProblem text={problem} />
        <div className="admin-form__pair">
          <TextField form={form} name="name" id="product-name" label="Name" required maxLength={120} autoComplete="off" />
          {!editing && (
            <TextField
              form={form}
              name="id"
              id="product-id"
              label="Product id (optional)"
              hint="Its address: /product/<id>. Made from the name when empty."
              autoComplete="off"
            />
          )}
        </div>
        <div className="admin-form__pair">
          <SelectField
            form={form}
            name="category"
            id="product-category"
            label="Category"
            placeholder="Choose a category"
            choices={CATEGORY_CHOICES}
            required
          />
          <SelectField
            form={form}
            name="brand"
            id="product-brand"
            label="Brand"
            placeholder="Choose a brand"
            choices={BRAND_CHOICES}
            required
          />
        </div>
        <TextareaField
          form={form}
          name="description"
          id="product-description"
          label="Description"
          rows={5}
          required
          maxLength={1000}
        />
        <ImageField form={form} name="image" id="product-image" label="Image URL" required />

        {!hasVariants && (
          <div className="admin-form__pair">
            <TextField
              form={form}
              name="priceNaira"
              id="product-price"
              label="Price (₦, naira)"
              inputMode="decimal"
              hint="For example 1,250,000 or 1299.50."
              required
            />
            <TextField
              form={form}
              name="stock"
              id="product-stock"
              label="Stock (units)"
              type="number"
              step="1"
              min="0"
              inputMode="numeric"
              hint={heldHint(detail?.held[''])}
              required
            />
          </div>
        )}

        <fieldset className="admin-variants">
          <legend>Variants</legend>
          <p className="muted field-hint">
            Options the shopper chooses between (storage, colour, edition), each with its own price and stock. With variants, the
            product has no price or stock of its own.
          </p>
          {hasVariants && (
            <TextField
              form={form}
              name="variantLabel"
              id="product-variant-label"
              label="Choice name"
              hint='What the variants choose, for example "Storage" or "Colour".'
              required
            />
          )}
          <VariantsError form={form} />
          {variants.fields.map((field, index) => (
            <fieldset key={field.id} className="admin-variant">
              <legend>Variant {index + 1}</legend>
              <input type="hidden" {...form.register(`variants.${index}.id`)} />
              <div className="admin-variant__grid">
                <TextField form={form} name={`variants.${index}.label`} id={`variant-${index}-label`} label="Label" required />
                <TextField
                  form={form}
                  name={`variants.${index}.priceNaira`}
                  id={`variant-${index}-price`}
                  label="Price (₦, naira)"
                  inputMode="decimal"
                  required
                />
                <TextField
                  form={form}
                  name={`variants.${index}.stock`}
                  id={`variant-${index}-stock`}
                  label="Stock (units)"
                  type="number"
                  step="1"
                  min="0"
                  inputMode="numeric"
                  hint={heldHint(detail?.held[form.getValues(`variants.${index}.id`)])}
                  required
                />
              </div>
              <ImageField
                form={form}
                name={`variants.${index}.image`}
                id={`variant-${index}-image`}
                label="Image URL (optional)"
              />
              <button type="button" className="btn btn-danger-outline btn-small" onClick={() => variants.remove(index)}>
                <Trash2 size={16} aria-hidden="true" /> Remove variant {index + 1}
              </button>
            </fieldset>
          ))}
          <button type="button" className="btn btn-outline" onClick={addVariant} disabled={variants.fields.length >= 20}>
            <Plus size={18} aria-hidden="true" /> Add variant
          </button>
        </fieldset>

        <CheckboxField form={form} name="featured" id="product-featured" label="Featured on the home page" />
        <div className="admin-form__pair">
          <TextField
            form={form}
            name="catalogueRating"
            id="product-catalogue-rating"
            label="Rating before GTS (0 to 5)"
            type="number"
            step="0.1"
            min="0"
            max="5"
            inputMode="decimal"
            hint="From the maker's or another shop's page. Shoppers see it with our buyers' reviews added."
          />
          <TextField
            form={form}
            name="catalogueReviews"
            id="product-catalogue-reviews"
            label="Reviews before GTS"
            type="number"
            step="1"
            min="0"
            inputMode="numeric"
          />
        </div>

        <div className="admin-form__actions">
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? 'Saving…' : editing ? 'Save changes' : 'Add product'}
          </button>
          <button type="button" className="btn btn-outline" onClick={cancel}>
            Cancel
          </button>
        </div>
      </form>
      {detail && <AuditTrail entries={detail.audit} />}
    </section>
  );
}

function VariantsError({ form }: { form: UseFormReturn<ProductFormValues, unknown, AdminProductInput> }) {
  const error = form.formState.errors.variants;
  const message = error?.message ?? error?.root?.message;
  return message ? <p className="field-error">{message}</p> : null;
}

type ImageName = 'image' | `variants.${number}.image`;

/** An image URL on this store: typed, or filled in by uploading a file; with a preview. */
function ImageField({
  form,
  name,
  id,
  label,
  required,
}: {
  form: UseFormReturn<ProductFormValues, unknown, AdminProductInput>;
  name: ImageName;
  id: string;
  label: string;
  required?: boolean;
}) {
  const url = useWatch({ control: form.control, name });
  const fileId = useId();
  const [uploading, setUploading] = useState(false);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploading(true);
    form.clearErrors(name);
    try {
      const response = await fetch(adminProductApi.uploadImage.path, {
        method: 'POST',
        headers: { 'content-type': file.type || 'application/octet-stream', accept: 'application/json' },
        body: file,
        credentials: 'same-origin',
      });
      const json: unknown = await response.json().catch(() => null);
      if (!response.ok) {
        const refusal = readErrorBody(json);
        const denied = refusedAccess(response.status, refusal?.error.code ?? '');
        if (denied) $adminDenied.set(denied);
        form.setError(name, {
          type: 'server',
          message: refusal?.error.message ?? `The upload failed (the server answered ${response.status}).`,
        });
        return;
      }
      const uploaded = uploadedImageSchema.safeParse(json);
      if (!uploaded.success) {
        form.setError(name, { type: 'server', message: 'The server sent an answer we could not read.' });
        return;
      }
      form.setValue(name, uploaded.data.url, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
      notify('success', 'Image uploaded');
    } catch {
      form.setError(name, { type: 'server', message: 'We could not reach the store. Check your connection and try again.' });
    } finally {
      setUploading(false);
    }
  };

  const preview = typeof url === 'string' && url.startsWith('/images/') ? url : null;
  return (
    <div className="admin-image">
      <TextField
        form={form}
        name={name}
        id={id}
        label={label}
        required={required}
        autoComplete="off"
        placeholder="/images/uploads/…"
      />
      <div className="admin-image__side">
        <span className="admin-upload">
          <input
            type="file"
            id={fileId}
            className="visually-hidden"
            accept="image/jpeg,image/png,image/webp"
            onChange={upload}
            disabled={uploading}
          />
          <label htmlFor={fileId} className="btn btn-outline btn-small">
            <Upload size={16} aria-hidden="true" /> {uploading ? 'Uploading…' : 'Upload'}
            <span className="visually-hidden"> {label}</span>
          </label>
        </span>
        <span className="admin-image__preview">
          {preview ? (
            <img src={preview} alt={`Preview: ${label}`} width={72} height={72} />
          ) : (
            <span className="muted">No image</span>
          )}
        </span>
      </div>
    </div>
  );
}
