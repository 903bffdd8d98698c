import { getTableName } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { CheckName } from './schema.ts';

/**
 * A database error recognised by the constraint it broke: the one place that reads
 * SQLite's error text. Callers compare the result with the schema's own objects
 * (`isUniqueViolation(v, orders.number)`, `isCheckViolation(v, CHECKS.productsStockNotNegative)`),
 * so a renamed column or constraint cannot silently stop being recognised.
 *
 * D1 reports e.g. `D1_ERROR: UNIQUE constraint failed: orders.number: SQLITE_CONSTRAINT`;
 * drizzle may wrap that error (`Failed query: …`, the original as `cause`), so the whole
 * `cause` chain is read.
 */
export type ConstraintViolation =
  | { kind: 'unique'; table: string; columns: string[] }
  | { kind: 'check'; name: string }
  | { kind: 'not_null'; table: string; column: string }
  | { kind: 'foreign_key' };

const UNIQUE = /UNIQUE constraint failed: (\w+\.\w+(?:, \w+\.\w+)*)/;
const CHECK = /CHECK constraint failed: (\w+)/;
const NOT_NULL = /NOT NULL constraint failed: (\w+)\.(\w+)/;
const FOREIGN_KEY = /FOREIGN KEY constraint failed/;

/** The constraint `err` (or an error in its `cause` chain) reports as broken, if any. */
export function constraintViolation(err: unknown): ConstraintViolation | undefined {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    const found = parse(e.message);
    if (found) return found;
  }
  return undefined;
}

function parse(message: string): ConstraintViolation | undefined {
  const unique = UNIQUE.exec(message);
  if (unique) {
    const qualified = unique[1]!.split(', ').map((c) => c.split('.') as [string, string]);
    return { kind: 'unique', table: qualified[0]![0], columns: qualified.map(([, column]) => column) };
  }
  const check = CHECK.exec(message);
  if (check) return { kind: 'check', name: check[1]! };
  const notNull = NOT_NULL.exec(message);
  if (notNull) return { kind: 'not_null', table: notNull[1]!, column: notNull[2]! };
  if (FOREIGN_KEY.test(message)) return { kind: 'foreign_key' };
  return undefined;
}

/** True when `violation` is the UNIQUE constraint on exactly these columns of one table. */
export function isUniqueViolation(
  violation: ConstraintViolation | undefined,
  ...columns: [SQLiteColumn, ...SQLiteColumn[]]
): boolean {
  if (violation?.kind !== 'unique') return false;
  const table = getTableName(columns[0].table);
  const names = columns.map((c) => c.name).sort();
  const found = [...violation.columns].sort();
  return violation.table === table && names.length === found.length && names.every((n, i) => n === found[i]);
}

/** True when `violation` is the named CHECK constraint of the schema. */
export function isCheckViolation(violation: ConstraintViolation | undefined, name: CheckName): boolean {
  return violation?.kind === 'check' && violation.name === name;
}
