/**
 * A searchable country picker (Chakra's Combobox): the member types a few letters of the name
 * instead of scrolling some 200 entries. Only a country of the list can be chosen.
 */
import { forwardRef, useEffect, useRef } from 'react';
import { Combobox, Field, Portal, useFilter, useListCollection } from '@chakra-ui/react';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';

export interface CountryFieldProps {
  label: string;
  countries: readonly string[];
  value: string;
  onChange: (country: string) => void;
  onBlur?: () => void;
  name?: string;
  error?: string | undefined;
}

export const CountryField = forwardRef<HTMLInputElement, CountryFieldProps>(function CountryField(
  { label, countries, value, onChange, onBlur, name, error },
  ref,
) {
  const t = useT();
  const messageText = useMessageText();
  const { contains } = useFilter({ sensitivity: 'base' });
  const { collection, filter, set } = useListCollection<string>({
    initialItems: [...countries],
    filter: contains,
  });
  // The list arrives after the first render (`set` is a new function each render: not a dependency).
  const setItems = useRef(set);
  setItems.current = set;
  useEffect(() => setItems.current([...countries]), [countries]);
  return (
    <Field.Root invalid={Boolean(error)}>
      <Combobox.Root
        collection={collection}
        value={value ? [value] : []}
        onValueChange={(details) => {
          const [country] = details.value;
          if (country) onChange(country);
        }}
        // What the member typed filters; a selection shows the full list again on the next open.
        onInputValueChange={(details) => filter(details.reason === 'input-change' ? details.inputValue : '')}
        openOnClick
        // Enter takes the first match.
        inputBehavior="autohighlight"
        // Leaving the field with a half-typed name puts the chosen country back.
        allowCustomValue={false}
        name={name}
      >
        <Combobox.Label>{label}</Combobox.Label>
        <Combobox.Control>
          <Combobox.Input
            ref={ref}
            placeholder={t('common.typeToSearch')}
            autoComplete="off"
            onBlur={onBlur}
          />
          <Combobox.IndicatorGroup>
            <Combobox.Trigger aria-label={t('common.showAllCountries')} />
          </Combobox.IndicatorGroup>
        </Combobox.Control>
        <Portal>
          <Combobox.Positioner>
            <Combobox.Content maxH="16rem">
              <Combobox.Empty>{t('common.noCountryMatches')}</Combobox.Empty>
              {collection.items.map((country) => (
                <Combobox.Item key={country} item={country}>
                  {country}
                  <Combobox.ItemIndicator />
                </Combobox.Item>
              ))}
            </Combobox.Content>
          </Combobox.Positioner>
        </Portal>
      </Combobox.Root>
      {error && <Field.ErrorText>{messageText(error)}</Field.ErrorText>}
    </Field.Root>
  );
});

/**
 * The browser's country, when its language tags name a region ('en-GB' → United Kingdom), as the
 * list spells it; undefined when no tag has a region or the list lacks it. A bare language ('en')
 * says nothing about where the member lives, so it is not guessed from.
 */
export function countryFromLanguages(
  languages: readonly string[],
  countries: readonly string[],
): string | undefined {
  const normalize = (name: string) =>
    name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[’']/g, "'")
      .replace(/&/g, 'and')
      .toLowerCase();
  const byName = new Map(countries.map((country) => [normalize(country), country]));
  let regionNames: Intl.DisplayNames;
  try {
    regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return undefined;
  }
  for (const tag of languages) {
    let region: string | undefined;
    try {
      region = new Intl.Locale(tag).region;
    } catch {
      continue; // not a language tag
    }
    if (!region) continue;
    const names = [REGION_ALIASES[region], regionNames.of(region)].filter((name): name is string =>
      Boolean(name),
    );
    for (const name of names) {
      const found = byName.get(normalize(name));
      if (found) return found;
    }
  }
  return undefined;
}

/** Regions whose English display name differs from how the country list spells them. */
const REGION_ALIASES: Record<string, string> = {
  CD: 'Democratic Republic of the Congo',
  CG: 'Congo',
  CV: 'Cabo Verde',
  CZ: 'Czechia',
  FM: 'Micronesia',
  HK: 'Hong Kong',
  KN: 'Saint Kitts and Nevis',
  LC: 'Saint Lucia',
  MM: 'Myanmar',
  PS: 'Palestine',
  TR: 'Turkey',
  VA: 'Vatican City',
  VC: 'Saint Vincent and the Grenadines',
};
