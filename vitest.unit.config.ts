import { defineConfig } from 'vitest/config';

// Pure domain code (catalogue, search, cart, money): no Worker, no browser.
export default defineConfig({
  test: {
    name: 'unit',
    include: ['src/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
