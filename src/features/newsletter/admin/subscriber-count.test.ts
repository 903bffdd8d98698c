import { describe, expect, it } from 'vitest';
import { subscriberCount } from './SubscribersScreen.tsx';

describe('the subscriber count', () => {
  it('counts the confirmed addresses as subscribers, and says the others wait and are not exported', () => {
    expect(subscriberCount(1, 1)).toBe('1 subscriber.');
    expect(subscriberCount(56, 55)).toBe('55 subscribers, and 1 address waiting for confirmation (not in the export).');
    expect(subscriberCount(1, 0)).toBe('0 subscribers, and 1 address waiting for confirmation (not in the export).');
    expect(subscriberCount(5, 2)).toBe('2 subscribers, and 3 addresses waiting for confirmation (not in the export).');
  });
});
