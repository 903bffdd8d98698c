/**
 * A page the Worker sent, parsed for its parts without applying any of it: through a <template>,
 * whose content is inert (no style applied, no script run, no image fetched). Used by the plain
 * scripts that put a part of the Worker's page into this one (the listing, /track).
 *
 * Not DOMParser: Chrome checks the inline <style> of a DOMParser document against this page's
 * Content-Security-Policy, and each page's policy lists the hash of its own inline stylesheet
 * only. A pre-rendered page's and the Worker's rendering of the same CSS once differed by a
 * newline, and every lookup on /track then logged a CSP violation (tests/e2e/fixtures.ts fails
 * a test on any).
 */
export function parsePage(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
}
