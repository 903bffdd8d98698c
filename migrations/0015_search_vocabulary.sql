-- The search index's vocabulary (docs/decisions/022-search-that-understands.md), written by hand:
-- drizzle-kit cannot express FTS5 tables. One row per word and column of `products_fts` (the
-- products on sale), read by the Worker for typos, split and joined words and "did you mean"
-- (functions/catalogue/vocabulary.ts). An fts5vocab table stores nothing: it reads the index.
CREATE VIRTUAL TABLE `products_fts_vocab` USING fts5vocab(`products_fts`, 'col');
