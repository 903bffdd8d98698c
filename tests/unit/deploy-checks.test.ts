import { describe, expect, it } from 'vitest';
import { productionProblems } from '../../scripts/deploy-checks.ts';

describe('productionProblems (npm run deploy stops on any)', () => {
  it('passes a store on its own https address with no local-only flag', () => {
    expect(productionProblems({ SITE_URL: 'https://gts.ng', PAYMENTS_STANDIN: 'false', BANK_NAME: 'First Bank' })).toEqual([]);
  });

  it("names the local SITE_URL that wrangler.toml's [vars] ship for npm start, and one that is not https or not set", () => {
    for (const site of [
      'http://localhost:8787',
      'http://127.0.0.1:8787',
      'https://localhost',
      'http://gts.ng',
      'gts.ng',
      undefined,
    ]) {
      const problems = productionProblems({ SITE_URL: site });
      expect(problems, String(site)).toHaveLength(1);
      expect(problems[0]).toMatch(/^SITE_URL is /);
    }
  });

  it('names each local-only flag that is on, however it is written', () => {
    const problems = productionProblems({
      SITE_URL: 'https://gts.ng',
      PAYMENTS_STANDIN: true,
      AUTH_GOOGLE_STANDIN: ' true',
      EMAIL_LOG_BODIES: 'true',
    });
    expect(problems.map((p) => p.split(' ')[0])).toEqual(['PAYMENTS_STANDIN', 'AUTH_GOOGLE_STANDIN', 'EMAIL_LOG_BODIES']);
  });
});
