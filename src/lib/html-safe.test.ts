import { describe, expect, it } from 'vitest';
import { jsonForScript } from './html-safe.ts';

/** Text a marketer's data file or an admin could put in a product name (issue 20, finding 8). */
const HOSTILE = [
  '</script><h1 id="pwn">pwned</h1>',
  '</SCRIPT ><img src=x onerror=alert(1)>',
  '<!--<script>',
  '<script>alert(1)</script>',
  '" onmouseover="alert(1)',
  "'><img src=x onerror=alert(1)>",
  'Tom & Jerry ]]> \u2028line\u2029para',
];

describe('jsonForScript', () => {
  it.each(HOSTILE)('writes %j with no character that can end or reopen a script element', (text) => {
    const written = jsonForScript({ name: text, nested: [{ text }] });
    expect(written).not.toMatch(/[<>&\u2028\u2029]/);
  });

  it.each(HOSTILE)('reads back as the exact value: %j', (text) => {
    const value = { '@type': 'Product', name: text, offers: [{ price: 1249000, note: text }] };
    expect(JSON.parse(jsonForScript(value))).toEqual(value);
  });

  it('escapes as JSON unicode escapes, the way a JSON parser reads them', () => {
    expect(jsonForScript('</script>&\u2028\u2029')).toBe('"\\u003c/script\\u003e\\u0026\\u2028\\u2029"');
  });

  it('leaves other text as JSON.stringify writes it', () => {
    const value = { name: 'PlayStation 5 Slim — ₦849,000 "Disc"', n: 1.5, ok: true, none: null };
    expect(jsonForScript(value)).toBe(JSON.stringify(value));
  });
});
