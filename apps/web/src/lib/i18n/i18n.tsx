/**
 * The app's language at run time: react-intl (FormatJS, ICU MessageFormat) over the catalogs, and
 * the platform's Intl for money, figures and dates in the member's language and time zone.
 * - `useT()` → `t('wallets.moveFunds', { values })`: a message as text.
 * - `<T id=… values={{ b: (chunks) => <b>{chunks}</b> }} />`: a message with markup.
 * - `useFormat()` → `money`, `number`, `dateTime` (the member's zone, named)…
 * - `useMessageText()`: a provider's message (the spec's exact texts) in the member's language by
 *   its key; one the app does not know is shown as sent.
 * A new language is a folder of catalogs and an entry in locales.ts (docs/translations.md).
 */
import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { FormattedMessage, IntlProvider, useIntl } from 'react-intl';
import { createFormatters, deviceTimeZone, MSG, type Formatters } from '@md/shared';
import { loadMessages, type Catalog } from './catalogs.ts';
import type { MessageId } from './catalog-types.ts';
import { applyDocumentLocale, directionOf, intlLocaleOf, rememberLocale, type AnyLocale } from './locales.ts';

export interface LoadedLocale {
  locale: AnyLocale;
  messages: Catalog;
}

export const loadLocale = async (locale: AnyLocale): Promise<LoadedLocale> => ({
  locale,
  messages: await loadMessages(locale),
});

interface LocaleState {
  locale: AnyLocale;
  direction: 'ltr' | 'rtl';
  format: Formatters;
  /** Loads the language's catalogs, then switches the whole app to it and remembers the choice. */
  setLocale: (locale: AnyLocale) => Promise<void>;
}

const LocaleContext = createContext<LocaleState | null>(null);

export function I18nProvider({ initial, children }: { initial: LoadedLocale; children: ReactNode }) {
  const [loaded, setLoaded] = useState(initial);
  const { locale, messages } = loaded;
  useLayoutEffect(() => applyDocumentLocale(locale), [locale]);
  const setLocale = useCallback(async (next: AnyLocale) => {
    const nextLoaded = await loadLocale(next);
    rememberLocale(next);
    setLoaded(nextLoaded);
  }, []);
  const state = useMemo<LocaleState>(
    () => ({
      locale,
      direction: directionOf(locale),
      format: createFormatters(intlLocaleOf(locale), deviceTimeZone()),
      setLocale,
    }),
    [locale, setLocale],
  );
  return (
    <LocaleContext.Provider value={state}>
      <IntlProvider
        locale={intlLocaleOf(locale)}
        defaultLocale="en"
        messages={messages as Record<string, string>}
      >
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}

function useLocaleState(): LocaleState {
  const state = useContext(LocaleContext);
  if (!state) throw new Error('useLocale needs <I18nProvider> (app/providers.tsx)');
  return state;
}

/** The language, its direction and the switch. */
export const useLocale = () => useLocaleState();

/** Money, figures and dates in the member's language and time zone. */
export const useFormat = (): Formatters => useLocaleState().format;

export type MessageValues = Record<string, string | number | Date | null | undefined>;

/** `t(id, values)`: a catalog message as text. */
export function useT() {
  const intl = useIntl();
  return useCallback((id: MessageId, values?: MessageValues) => intl.formatMessage({ id }, values), [intl]);
}

/** A catalog message that may carry markup: `values` maps its tags to elements. */
export function T({
  id,
  values,
}: {
  id: MessageId;
  values?: Record<string, ReactNode | ((chunks: ReactNode[]) => ReactNode)>;
}) {
  return <FormattedMessage id={id} values={values as Record<string, ReactNode>} />;
}

const MSG_KEY_BY_TEXT = new Map(Object.entries(MSG).map(([key, text]) => [text as string, key]));

/** The provider's message in the member's language when it is one the spec names; else as sent. */
export function useMessageText() {
  const intl = useIntl();
  return useCallback(
    (text: string) => {
      const key = MSG_KEY_BY_TEXT.get(text);
      const id = key && `msg.${key}`;
      return id && intl.messages[id] !== undefined ? intl.formatMessage({ id }) : text;
    },
    [intl],
  );
}
