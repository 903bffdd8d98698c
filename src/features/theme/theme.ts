/**
 * Theme: dark by default; localStorage key `theme` holds a JSON boolean (true = dark).
 * The choice is applied by an inline script in <head> before first paint (see
 * ThemeScript.astro), so the page never flashes the wrong theme.
 */
export const THEME_KEY = 'theme';

export function readDarkPreference(stored: string | null): boolean {
  try {
    const value: unknown = stored === null ? true : JSON.parse(stored);
    return typeof value === 'boolean' ? value : true;
  } catch {
    return true;
  }
}

export function applyTheme(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export function toggleTheme(): boolean {
  const dark = !document.documentElement.classList.contains('dark');
  applyTheme(dark);
  try {
    localStorage.setItem(THEME_KEY, JSON.stringify(dark));
  } catch {
    // Storage can be full or blocked (private mode); the toggle still works for this page.
  }
  return dark;
}
