/**
 * Stored text as one line: each run of control characters, separators and spaces (line breaks,
 * tabs, direction marks) becomes one space, and the ends are trimmed. For text repeated where a
 * line break would start a paragraph of its own: an e-mail's greeting, an admin's note shown to
 * the shopper. Empty or missing text gives undefined.
 */
export function oneLine(text: string | null | undefined): string | undefined {
  return text?.replace(/[\p{C}\p{Z}]+/gu, ' ').trim() || undefined;
}
