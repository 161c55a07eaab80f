import { describe, expect, it } from 'vitest';
import { englishI18n } from '@/testing/i18n.ts';
import { BOOT_ENGLISH, bootFallback } from './boot-messages.ts';

describe('the boot pages’ built-in English', () => {
  it('is the English catalogs’ words for the same messages', () => {
    for (const [id, english] of Object.entries(BOOT_ENGLISH)) expect(englishI18n.messages[id]).toBe(english);
  });

  it('is already compiled: text and placeholders, no parser needed', () => {
    expect(bootFallback().messages['app.world.gone']).toEqual([
      { type: 0, value: "This tab's QA world " },
      { type: 1, value: 'id' },
      { type: 0, value: ' is gone: it expired or was deleted.' },
    ]);
  });
});
