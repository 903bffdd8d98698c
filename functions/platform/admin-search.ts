import { or, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The marks folded away: grave, acute and dot below, the tone and vowel marks of Yoruba and Igbo
 * names (Ọlábísí, Àjàyí, Adéọlá, Ṣọlá, Ńkẹ́chí) and of é. Only these: D1 refuses an expression
 * nested more than 100 deep, and each letter folded is one replace() around the column.
 */
const MARKS = ['\u0300', '\u0301', '\u0323'];

/**
 * Each letter written with one of MARKS as a single character (á, Ọ, ṣ, ń…), lower and upper case,
 * with the plain lower-case letter it folds to: what `fold()` does in JavaScript, for SQLite,
 * whose lower() folds A-Z alone.
 */
const FOLDS: [string, string][] = [...'aeiouns'].flatMap((letter) =>
  [letter, letter.toUpperCase()].flatMap((base) =>
    MARKS.map((mark) => (base + mark).normalize('NFC')).flatMap((composed) =>
      composed.length === 1 ? [[composed, letter] as [string, string]] : [],
    ),
  ),
);

/** Text as the search compares it: lower case, without MARKS ("Ọlábísí" → "olabisi"). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300\u0301\u0323]/g, '')
    .normalize('NFC')
    .toLowerCase();
}

/**
 * `fold()` in SQL, over a column: each letter with a mark replaced, then the loose marks dropped,
 * then lower(). Written out as literals (the letters are constants, no quote among them): D1 takes
 * at most 100 bound parameters in a statement.
 */
const FOLDED_OPEN = `lower(${'replace('.repeat(FOLDS.length + MARKS.length)}`;
const FOLDED_CLOSE = `${FOLDS.map(([from, to]) => `, '${from}', '${to}')`).join('')}${MARKS.map((mark) => `, '${mark}', '')`).join('')})`;
const foldedSql = (column: SQLiteColumn): SQL => sql`${sql.raw(FOLDED_OPEN)}${column}${sql.raw(FOLDED_CLOSE)}`;

/**
 * What an admin list's search box matches (orders, trade-ins): the reference (exact or a prefix,
 * with or without its "GTS-"/"TRD-", any case), the e-mail (part of it), free-text columns like
 * the name (part of it, any case, with or without its accents and dots: "olabisi" finds
 * "Ọlábísí") and the phone (its digits, a leading 0 or +234 as typed; stored
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
    ...columns.text.map((column) => sql`instr(${foldedSql(column)}, ${fold(text)}) > 0`),
  ];
  if (/^[0-9A-Z]+$/.test(upper)) conditions.push(sql`instr(${columns.reference}, ${`${columns.prefix}-${upper}`}) = 1`);
  const digits = text.replace(/\D/g, '');
  const national = digits.replace(/^(?:234|0)/, '');
  if (digits.length >= 4 && /^[\d\s()+.-]+$/.test(text) && national) {
    conditions.push(sql`instr(${columns.phone}, ${national}) > 0`);
  }
  return or(...conditions);
}
