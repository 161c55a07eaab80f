import { describe, expect, it } from 'vitest';
import { countryFromLanguages } from './country-field.tsx';

const LIST = [
  'Afghanistan',
  "Côte d'Ivoire",
  'Bosnia and Herzegovina',
  'Democratic Republic of the Congo',
  'Congo',
  'Germany',
  'Sao Tome and Principe',
  'Turkey',
  'United Kingdom',
  'United States',
];

describe('countryFromLanguages', () => {
  it("maps a language tag's region to the list's spelling", () => {
    expect(countryFromLanguages(['en-GB'], LIST)).toBe('United Kingdom');
    expect(countryFromLanguages(['en-US'], LIST)).toBe('United States');
    expect(countryFromLanguages(['de-DE'], LIST)).toBe('Germany');
    // Display names that differ from the list: '&', accents, curly apostrophes, renamed countries.
    expect(countryFromLanguages(['bs-BA'], LIST)).toBe('Bosnia and Herzegovina');
    expect(countryFromLanguages(['pt-ST'], LIST)).toBe('Sao Tome and Principe');
    expect(countryFromLanguages(['fr-CI'], LIST)).toBe("Côte d'Ivoire");
    expect(countryFromLanguages(['tr-TR'], LIST)).toBe('Turkey');
    expect(countryFromLanguages(['fr-CD'], LIST)).toBe('Democratic Republic of the Congo');
    expect(countryFromLanguages(['fr-CG'], LIST)).toBe('Congo');
  });

  it('takes the first tag that names a listed region', () => {
    expect(countryFromLanguages(['en', 'fr-FR', 'de-DE'], LIST)).toBe('Germany');
  });

  it('guesses nothing from a bare language, an unlisted region or a malformed tag', () => {
    expect(countryFromLanguages(['en'], LIST)).toBeUndefined();
    expect(countryFromLanguages(['fr-FR'], LIST)).toBeUndefined();
    expect(countryFromLanguages(['not a tag', ''], LIST)).toBeUndefined();
    expect(countryFromLanguages([], LIST)).toBeUndefined();
  });
});
