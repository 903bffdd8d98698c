/**
 * A data file the build refuses (a product file, the synonyms file), with every problem named:
 * its own module, so what imports it (the synonyms, which the Worker reads too) does not bundle
 * the catalogue's validator into the Worker (tests/e2e/worker-bundle.spec.ts).
 */
export class CatalogueError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The catalogue has ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
    this.name = 'CatalogueError';
    this.problems = problems;
  }
}
