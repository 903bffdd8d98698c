import { z } from 'zod';
import synonymsFile from '../../data/search/synonyms.json';
import { CATEGORY_IDS } from './categories.ts';
import { CatalogueError } from './catalogue-error.ts';

/**
 * Words that mean the same to a shopper, from src/data/search/synonyms.json (marketers edit it):
 * groups of equivalent phrases (`ps5` = `playstation 5`), some naming a category
 * (`phone`, `phones`, `smartphone` → phones). The search (functions/catalogue/query-plan.ts) puts
 * every phrase of a group in place of the one the shopper typed, and a group's category's
 * products match it even when their text lacks the words (docs/decisions/022-search-that-understands.md).
 */

/** Where the file lives, for messages (the build and the Worker read the same file). */
export const SYNONYMS_FILE = 'src/data/search/synonyms.json';

/** A phrase as the search sees words: lower-case letters and digits, one space between words. */
const phraseSchema = z
  .string()
  .regex(/^[a-z0-9]+( [a-z0-9]+)*$/, 'Must be lower-case words of letters and digits, one space between words');

const groupSchema = z.object({
  /** The category whose products this group's phrases name (src/features/catalogue/categories.ts). */
  category: z.enum(CATEGORY_IDS, { error: `Must be a category id: ${CATEGORY_IDS.join(', ')}` }).optional(),
  phrases: z.array(phraseSchema).min(1, 'Needs at least one phrase'),
});

export type SynonymGroup = z.infer<typeof groupSchema>;

const fileSchema = z.array(z.unknown(), { error: 'The synonyms file must hold a JSON list of groups' });

/**
 * Validates the synonyms file and returns its groups. Collects every problem before failing, each
 * naming the file, the group (its number and first phrase) and the field, like the catalogue's
 * validation: a group of one phrase must name a category (else it says nothing), and a phrase may
 * be in one group only (else the search could not tell which group a shopper meant).
 */
export function validateSynonyms(file: string, data: unknown): SynonymGroup[] {
  const list = fileSchema.safeParse(data);
  if (!list.success) throw new CatalogueError([`${file}: ${list.error.issues[0]?.message}`]);
  const problems: string[] = [];
  const groups: SynonymGroup[] = [];
  const seen = new Map<string, number>();
  list.data.forEach((raw, index) => {
    const first = (raw as { phrases?: unknown[] } | null)?.phrases?.[0];
    const label = typeof first === 'string' ? `group #${index + 1} ("${first}")` : `group #${index + 1}`;
    const group = groupSchema.safeParse(raw);
    if (!group.success) {
      for (const issue of group.error.issues)
        problems.push(`${file}: ${label}: ${issue.path.join('.') || '(group)'}: ${issue.message}`);
      return;
    }
    if (group.data.phrases.length < 2 && !group.data.category) {
      problems.push(`${file}: ${label}: phrases: A group without a category needs at least two phrases`);
    }
    group.data.phrases.forEach((phrase, i) => {
      const other = seen.get(phrase);
      if (other !== undefined) {
        problems.push(`${file}: ${label}: phrases.${i}: "${phrase}" is already in group #${other + 1}`);
      } else seen.set(phrase, index);
    });
    groups.push(group.data);
  });
  if (problems.length > 0) throw new CatalogueError(problems);
  return groups;
}

/** The store's synonym groups, validated when the module loads (the build validates the same file and fails first). */
export const SYNONYMS: readonly SynonymGroup[] = validateSynonyms(SYNONYMS_FILE, synonymsFile);
