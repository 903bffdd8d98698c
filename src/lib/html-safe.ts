/**
 * Text written into HTML where the HTML parser, not an escaping template, decides where it
 * ends. One helper, so no page hand-rolls its own (issue 20, finding 8).
 */

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPED: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * `value` as JSON that is safe inside a `<script>` element (JSON-LD, or data for a script):
 * the HTML parser ends a script at the first `</script` whatever the JSON means, and `<!--`
 * with `<script` puts it in a state where the real `</script>` no longer ends it, so `<`, `>`
 * and `&` are written as JSON's `\u003c`-style escapes, which every JSON reader turns back
 * into the same text. U+2028/U+2029 too: JavaScript before ES2019 read them as line ends.
 */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(SCRIPT_UNSAFE, (c) => ESCAPED[c]!);
}
