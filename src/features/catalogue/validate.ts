import { catalogueEntrySchema, type CatalogueEntry, type Product, productFromFields } from './product.ts';
import { CatalogueError } from './catalogue-error.ts';
import { z } from 'zod';

/** A catalogue data file as read from disk: its path (for messages) and parsed JSON. */
export interface CatalogueFile {
  file: string;
  data: unknown;
}

const fileSchema = z.array(z.unknown(), { error: 'A catalogue file must hold a JSON list of products' });

/**
 * Validates every catalogue file and returns the products, priced in kobo.
 * Collects every problem before failing, each naming the file, the product and
 * the field, so a marketer fixes a whole file in one go.
 */
export function validateCatalogue(
  files: CatalogueFile[],
  { imageExists }: { imageExists?: (publicPath: string) => boolean } = {},
): Product[] {
  const problems: string[] = [];
  const products: Product[] = [];
  const seen = new Map<string, string>();

  for (const { file, data } of files) {
    const list = fileSchema.safeParse(data);
    if (!list.success) {
      problems.push(`${file}: ${list.error.issues[0]?.message}`);
      continue;
    }
    list.data.forEach((raw, index) => {
      const id = rawId(raw);
      const label = id ? `product "${id}" (#${index + 1})` : `product #${index + 1}`;
      if (id) {
        const first = seen.get(id);
        if (first) problems.push(`${file}: ${label}: id: "${id}" is already used in ${first}`);
        else seen.set(id, file);
      }
      const entry = catalogueEntrySchema.safeParse(raw);
      if (!entry.success) {
        for (const issue of entry.error.issues) {
          const field = issue.path.join('.') || '(product)';
          problems.push(`${file}: ${label}: ${field}: ${issue.message}`);
        }
        return;
      }
      const p = entry.data;
      for (const image of [p.image, ...p.variants.flatMap((v) => (v.image ? [v.image] : []))]) {
        if (imageExists && !imageExists(image)) problems.push(`${file}: ${label}: image: no file at public${image}`);
      }
      products.push(toProduct(p));
    });
  }

  if (problems.length > 0) throw new CatalogueError(problems);
  return products;
}

/** The product as the store sells it (productFromFields, the same conversion the admin's form goes through). */
function toProduct(p: CatalogueEntry): Product {
  return productFromFields(p.id, p, p);
}

function rawId(raw: unknown): string | undefined {
  return typeof raw === 'object' && raw !== null && 'id' in raw && typeof raw.id === 'string' ? raw.id : undefined;
}
