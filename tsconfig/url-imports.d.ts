// A module imported with `?url` is its built file's address (Vite). The main tsconfig has this
// from astro/client; the browser check has no Vite types, so it is declared here.
declare module '*?url' {
  const href: string;
  export default href;
}
