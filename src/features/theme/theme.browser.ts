/**
 * Theme: dark by default; localStorage key `theme` holds a JSON boolean (true = dark).
 * The choice is applied by an inline script in <head> before first paint (see
 * ThemeScript.astro), so the page never flashes the wrong theme.
 */
export const THEME_KEY = 'theme';

export function applyTheme(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

/** Applies the theme to this page and keeps it for this browser (the key the head script reads). */
export function setTheme(dark: boolean) {
  applyTheme(dark);
  try {
    localStorage.setItem(THEME_KEY, JSON.stringify(dark));
  } catch {
    // Storage can be full or blocked (private mode); the theme still applies to this page.
  }
}

export function toggleTheme(): boolean {
  const dark = !document.documentElement.classList.contains('dark');
  setTheme(dark);
  return dark;
}
