import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../scripts/catalogue-files.ts';
import { type D1Catalogue, describeSync, planCatalogueSync, readD1Catalogue, syncSql } from '../../scripts/catalogue/sync.ts';
import { query, queryEach, runFile } from '../../scripts/db/d1.ts';
import type { Product } from '../../src/features/catalogue/product.ts';

/**
 * The catalogue's data files into D1, field by field (scripts/catalogue/sync.ts, what
 * `npm run db:seed` and `npm run deploy` run): the rules on their own, then end to end on a
 * migrated, seeded local D1 where an admin and a marketer both changed things.
 */
const files = readCatalogueFromDisk();
const plain = files.filter((p) => p.variants.length === 0);
const withVariants = files.find((p) => p.variants.length > 1)!;

/** D1 as the sync reads it, holding `products` exactly as the files do and recorded as synced. */
function d1Like(
  products: readonly Product[],
  edit: (row: Record<string, string | number | null>, id: string) => void = () => {},
) {
  const d1: D1Catalogue = { products: new Map(), synced: new Map() };
  for (const p of products) {
    const row: Record<string, string | number | null> = {
      name: p.name,
      brand: p.brand,
      category: p.category,
      description: p.description,
      image: p.image,
      variant_label: p.variantLabel,
      catalogue_rating: p.rating,
      catalogue_reviews: p.reviews,
      featured: p.featured ? 1 : 0,
      price_kobo: p.price,
    };
    const variants = new Map(
      p.variants.map((v, position) => [v.id, { label: v.label, price_kobo: v.price, image: v.image, position }] as const),
    );
    for (const [field, column] of [
      ['name', 'name'],
      ['brand', 'brand'],
      ['category', 'category'],
      ['description', 'description'],
      ['image', 'image'],
      ['variantLabel', 'variant_label'],
      ['rating', 'catalogue_rating'],
      ['reviews', 'catalogue_reviews'],
      ['featured', 'featured'],
      ...(p.variants.length ? [] : [['price', 'price_kobo']]),
    ] as const)
      d1.synced.set(`${p.id}\t\t${field}`, JSON.stringify(row[column]));
    for (const [id, v] of variants)
      for (const [field, column] of [
        ['label', 'label'],
        ['price', 'price_kobo'],
        ['image', 'image'],
        ['position', 'position'],
      ] as const)
        d1.synced.set(`${p.id}\t${id}\t${field}`, JSON.stringify(v[column]));
    edit(row, p.id);
    d1.products.set(p.id, { row, active: true, variants });
  }
  return d1;
}

describe('the catalogue sync, rule by rule', () => {
  const [a, b] = plain as [Product, Product];

  it('files and D1 alike: nothing to do, and the report says so', () => {
    const plan = planCatalogueSync(files, d1Like(files));
    expect({ ...plan, record: plan.record.length }).toEqual({
      newProducts: [],
      newVariants: [],
      apply: [],
      keptFromAdmin: [],
      conflicts: [],
      record: 0,
      goneFromFiles: [],
      variantsGoneFromFiles: [],
      archived: [],
    });
    expect(describeSync(plan, { dryRun: true })).toEqual(['   D1 already matches the files.']);
  });

  it('a field changed in a file, untouched in D1, is applied; one changed by an admin only is kept', () => {
    const d1 = d1Like([a, b], (row, id) => {
      if (id === b.id) row.description = 'An admin wrote this description on the admin screen.';
    });
    const plan = planCatalogueSync([{ ...a, name: `${a.name} (2026)` }, b], d1);
    expect(plan.apply).toEqual([
      { productId: a.id, variantId: '', field: 'name', column: 'name', d1: a.name, file: `${a.name} (2026)`, synced: a.name },
    ]);
    expect(plan.keptFromAdmin.map((c) => [c.productId, c.field])).toEqual([[b.id, 'description']]);
    expect(plan.conflicts).toEqual([]);
  });

  it('both changed, or no record of a last sync and different: a conflict with the three values, never applied', () => {
    const d1 = d1Like([a, b], (row, id) => {
      if (id === a.id) row.price_kobo = a.price - 100_000;
      if (id === b.id) row.name = 'Renamed by an admin';
    });
    d1.synced.delete(`${b.id}\t\tname`);
    const plan = planCatalogueSync(
      [
        { ...a, price: a.price + 500_000 },
        { ...b, name: `${b.name} Plus` },
      ],
      d1,
    );
    expect(plan.apply).toEqual([]);
    expect(plan.conflicts).toEqual([
      {
        productId: a.id,
        variantId: '',
        field: 'price',
        column: 'price_kobo',
        d1: a.price - 100_000,
        file: a.price + 500_000,
        synced: a.price,
      },
      {
        productId: b.id,
        variantId: '',
        field: 'name',
        column: 'name',
        d1: 'Renamed by an admin',
        file: `${b.name} Plus`,
        synced: undefined,
      },
    ]);
    const report = describeSync(plan, { dryRun: false }).join('\n');
    expect(report).toContain(`! 2 conflict(s), not applied`);
    expect(report).toContain(`${b.id} name: file "${b.name} Plus", D1 "Renamed by an admin", last synced (no record)`);
  });

  it("stock is never synced; a product with variants syncs each variant's price, not its own", () => {
    const d1 = d1Like([a, withVariants]);
    const [first, ...rest] = withVariants.variants;
    const plan = planCatalogueSync(
      [
        { ...a, stock: a.stock + 40 },
        { ...withVariants, price: 1, variants: [{ ...first!, price: first!.price + 200_000, stock: 0 }, ...rest] },
      ],
      d1,
    );
    expect(plan.apply.map((c) => [c.productId, c.variantId, c.field, c.file])).toEqual([
      [withVariants.id, first!.id, 'price', first!.price + 200_000],
    ]);
  });

  it('new products and variants are added whole; what the files dropped is reported, never deleted', () => {
    const d1 = d1Like([a, b, withVariants]);
    const [, ...others] = withVariants.variants;
    const added = { ...withVariants.variants[0]!, id: 'limited-edition', label: 'Limited edition' };
    const plan = planCatalogueSync([a, { ...withVariants, variants: [...others, added] }, files.at(-1)!], d1);
    expect(plan.newProducts.map((p) => p.id)).toEqual([files.at(-1)!.id]);
    expect(plan.newVariants.map((v) => v.variantId)).toEqual(['limited-edition']);
    expect(plan.goneFromFiles).toEqual([b.id]);
    expect(plan.variantsGoneFromFiles).toEqual([{ productId: withVariants.id, variantId: withVariants.variants[0]!.id }]);
    expect(syncSql(plan).some((sql) => /^\s*DELETE/i.test(sql))).toBe(false);
  });
});

describe('the catalogue sync on a local D1', () => {
  const DIR = `.wrangler/sync-test-${process.pid}`;
  const target = { remote: false, persistDir: DIR };
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  it("applies the marketer's changes, keeps the admin's, lists conflicts, and an admin's save during the sync wins", () => {
    execFileSync('npm', ['run', '--silent', 'db:setup'], {
      env: { ...process.env, D1_PERSIST_DIR: DIR, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const [renamed, adminEdited, bothEdited, racing, rerated, restocked] = plain as Product[] as [
      Product,
      Product,
      Product,
      Product,
      Product,
      Product,
    ];
    const sql = (text: string) => `'${text.replaceAll("'", "''")}'`;
    // A fresh store is in step with the files, every field recorded.
    expect(describeSync(planCatalogueSync(files, readD1Catalogue(target)), { dryRun: true })).toEqual([
      '   D1 already matches the files.',
    ]);
    // The admin, on the running store.
    queryEach(target, [
      `UPDATE products SET description = 'Edited by the admin: now sold with a free screen protector.' WHERE id = ${sql(adminEdited.id)}`,
      `UPDATE products SET name = 'Admin name' WHERE id = ${sql(bothEdited.id)}`,
      `UPDATE products SET stock = 2 WHERE id = ${sql(restocked.id)}`,
    ]);
    // The marketer, in the data files.
    const newProduct: Product = { ...files.at(-1)!, id: 'sync-test-new-product', name: 'Sync Test Speaker', featured: false };
    const edited = files.map((p) => {
      if (p.id === renamed.id) return { ...p, name: `${p.name} (2026 model)` };
      if (p.id === bothEdited.id) return { ...p, name: 'Marketing name' };
      if (p.id === racing.id) return { ...p, description: `${p.description} Marketing copy.` };
      if (p.id === rerated.id) return { ...p, rating: 3.9, reviews: p.reviews + 100 };
      if (p.id === restocked.id) return { ...p, stock: 99 };
      return p;
    });
    const plan = planCatalogueSync([...edited, newProduct], readD1Catalogue(target));
    expect(plan.newProducts.map((p) => p.id)).toEqual([newProduct.id]);
    expect(plan.apply.map((c) => `${c.productId} ${c.field}`).sort()).toEqual(
      [`${renamed.id} name`, `${racing.id} description`, `${rerated.id} rating`, `${rerated.id} reviews`].sort(),
    );
    expect(plan.keptFromAdmin.map((c) => `${c.productId} ${c.field}`)).toEqual([`${adminEdited.id} description`]);
    expect(plan.conflicts.map((c) => `${c.productId} ${c.field}`)).toEqual([`${bothEdited.id} name`]);

    // An admin saves the racing product between the sync's read and its write.
    query(target, `UPDATE products SET description = 'Saved by the admin mid-sync, for a while.' WHERE id = ${sql(racing.id)}`);
    const file = `${DIR}.sql`;
    writeFileSync(file, syncSql(plan).join('\n'));
    runFile(target, file);
    rmSync(file);

    // Read back in one wrangler call (each call starts wrangler: seconds on a busy machine).
    const ids = [renamed, adminEdited, bothEdited, racing, restocked, rerated].map((p) => p.id).concat(newProduct.id);
    const [rows = [], found = []] = queryEach(target, [
      `SELECT id, name, description, stock, rating, reviews FROM products WHERE id IN (${ids.map(sql).join(', ')})`,
      // The search index follows (its triggers): the new name is found.
      `SELECT rowid FROM products_fts WHERE products_fts MATCH '"2026 model"'`,
    ]);
    const row = (id: string) => rows.find((r) => r.id === id) ?? {};
    expect(row(renamed.id).name).toBe(`${renamed.name} (2026 model)`);
    expect(row(adminEdited.id).description).toBe('Edited by the admin: now sold with a free screen protector.');
    expect(row(bothEdited.id).name).toBe('Admin name');
    expect(row(racing.id).description).toBe('Saved by the admin mid-sync, for a while.');
    expect(row(restocked.id).stock).toBe(2);
    // What shoppers see of the rating follows the catalogue's new figures (no reviews of ours yet).
    expect(row(rerated.id)).toMatchObject({ rating: 3.9, reviews: rerated.reviews + 100 });
    expect(row(newProduct.id)).toMatchObject({ name: 'Sync Test Speaker' });
    expect(found).toHaveLength(1);

    // The next sync has only the conflicts left, the race now among them.
    const next = planCatalogueSync([...edited, newProduct], readD1Catalogue(target));
    expect({ apply: next.apply, newProducts: next.newProducts }).toEqual({ apply: [], newProducts: [] });
    expect(next.conflicts.map((c) => `${c.productId} ${c.field}`).sort()).toEqual(
      [`${bothEdited.id} name`, `${racing.id} description`].sort(),
    );
  }, 180_000);
});
