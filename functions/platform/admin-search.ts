import { or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * What an admin list's search box matches (orders, trade-ins): the reference (exact or a prefix,
 * with or without its "GTS-"/"TRD-", any case), the e-mail (part of it), free-text columns like
 * the name (part of it, any case) and the phone (its digits, a leading 0 or +234 as typed; stored
 * as +234…). A fragment cannot use an index, so a search reads the table; the unfiltered list
 * and the status filter do not.
 */
export function adminSearch(
  q: string,
  columns: { reference: SQLiteColumn; prefix: string; email: SQLiteColumn; phone: SQLiteColumn; text: SQLiteColumn[] },
): SQL | undefined {
  const text = q.trim();
  if (!text) return undefined;
  const upper = text.toUpperCase();
  const lower = text.toLowerCase();
  const conditions: SQL[] = [
    sql`instr(${columns.reference}, ${upper}) = 1`,
    sql`instr(${columns.email}, ${lower}) > 0`,
    ...columns.text.map((column) => sql`instr(lower(${column}), ${lower}) > 0`),
  ];
  if (/^[0-9A-Z]+$/.test(upper)) conditions.push(sql`instr(${columns.reference}, ${`${columns.prefix}-${upper}`}) = 1`);
  const digits = text.replace(/\D/g, '');
  const national = digits.replace(/^(?:234|0)/, '');
  if (digits.length >= 4 && /^[\d\s()+.-]+$/.test(text) && national) {
    conditions.push(sql`instr(${columns.phone}, ${national}) > 0`);
  }
  return or(...conditions);
}
