/**
 * The theme's inline script (ThemeScript.astro): inline and render-blocking on purpose, it sets
 * the theme before the first paint. It reads the key and format that theme.browser.ts writes (an
 * inline script cannot import). Allowed by its hash in each page's policy (InlineScript.astro,
 * functions/platform/page-policy.ts).
 */
export const THEME_SCRIPT = `(function () {
  var dark = true;
  try {
    var stored = localStorage.getItem('theme');
    if (stored !== null) { var v = JSON.parse(stored); if (typeof v === 'boolean') dark = v; }
  } catch (e) {}
  var root = document.documentElement;
  root.classList.toggle('dark', dark);
  root.style.colorScheme = dark ? 'dark' : 'light';
})();`;
