import { describe, expect, it } from 'vitest';
import { tabOfHash } from './settings.tsx';

describe('Settings tabs by fragment', () => {
  it('opens the named tab, Security for #sessions, Profile otherwise', () => {
    expect(tabOfHash('#security')).toBe('security');
    expect(tabOfHash('#notifications')).toBe('notifications');
    expect(tabOfHash('#sessions')).toBe('security');
    expect(tabOfHash('')).toBe('profile');
    expect(tabOfHash('#nowhere')).toBe('profile');
  });
});
