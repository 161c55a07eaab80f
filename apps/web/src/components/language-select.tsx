/**
 * The language menu: each language named in its own words, the choice remembered on this browser.
 * A native select (sign-in draws without Chakra; a phone shows its own picker), styled by the
 * first screen's classes, so the same menu serves sign-in and the dashboard's header.
 */
import { useState } from 'react';
import { useLocale, useT } from '@/lib/i18n/i18n.tsx';
import { LOCALE_NAMES, LOCALES, type AnyLocale } from '@/lib/i18n/locales.ts';

/** `width` auto: as wide as the longest language's name ("Português (Brasil)"), never cut. */
export function LanguageSelect({ width = 'auto' }: { width?: string }) {
  const t = useT();
  const { locale, setLocale } = useLocale();
  const [switching, setSwitching] = useState(false);
  return (
    <select
      className="fs-input"
      aria-label={t('common.language')}
      data-testid="language-select"
      value={locale}
      disabled={switching}
      style={{ width, minHeight: 'var(--chakra-sizes-9)', height: 'var(--chakra-sizes-9)', paddingBlock: 0 }}
      onChange={(event) => {
        setSwitching(true);
        void setLocale(event.target.value as AnyLocale).finally(() => setSwitching(false));
      }}
    >
      {/* The pseudo-locale is offered only when a test asked for it (?lang=en-XA). */}
      {!(LOCALES as readonly string[]).includes(locale) && <option value={locale}>{locale}</option>}
      {LOCALES.map((option) => (
        <option key={option} value={option} lang={option}>
          {LOCALE_NAMES[option]}
        </option>
      ))}
    </select>
  );
}
