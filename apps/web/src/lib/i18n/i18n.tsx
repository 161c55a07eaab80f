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
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { FormattedMessage, IntlProvider, useIntl } from 'react-intl';
import { createFormatters, deviceTimeZone, MSG, type Formatters } from '@md/shared';
import { notify } from '../toaster.ts';
import { loadMessages, type Catalog, type CatalogPart } from './catalogs.ts';
import type { MessageId } from './catalog-types.ts';
import {
  applyDocumentLocale,
  directionOf,
  intlLocaleOf,
  PSEUDO_LOCALE,
  rememberLocale,
  type AnyLocale,
} from './locales.ts';

export interface LoadedLocale {
  locale: AnyLocale;
  messages: Catalog;
  /** Every namespace, or only sign-in's (catalogs.ts: FIRST_NAMESPACES). */
  whole: boolean;
}

export const loadLocale = async (locale: AnyLocale, part: CatalogPart = 'whole'): Promise<LoadedLocale> => ({
  locale,
  messages: await loadMessages(locale, part),
  whole: part === 'whole' || locale === PSEUDO_LOCALE,
});

interface LocaleState {
  locale: AnyLocale;
  direction: 'ltr' | 'rtl';
  format: Formatters;
  /** Loads the language's catalogs, then switches the whole app to it and remembers the choice. */
  setLocale: (locale: AnyLocale) => Promise<void>;
  /** Whether every namespace of the language is loaded (sign-in starts with the first part). */
  whole: boolean;
  /**
   * Loads the rest of the language's catalogs into the app: one promise per language and attempt
   * (a failed attempt stays failed until the member asks again: app/whole-catalogs.tsx).
   */
  loadWhole: (attempt: number) => Promise<void>;
}

const LocaleContext = createContext<LocaleState | null>(null);

export function I18nProvider({ initial, children }: { initial: LoadedLocale; children: ReactNode }) {
  const [loaded, setLoaded] = useState(initial);
  const { locale, messages, whole } = loaded;
  useLayoutEffect(() => applyDocumentLocale(locale), [locale]);
  // A switch made on sign-in loads the first part of the new language; past sign-in, the whole.
  const setLocale = useCallback(
    async (next: AnyLocale) => {
      const nextLoaded = await loadLocale(next, whole ? 'whole' : 'first');
      rememberLocale(next);
      setLoaded(nextLoaded);
    },
    [whole],
  );
  const completions = useRef(new Map<string, Promise<void>>());
  const loadWhole = useCallback(
    (attempt: number) => {
      const key = `${locale} ${attempt}`;
      let completion = completions.current.get(key);
      if (!completion) {
        completion = loadLocale(locale, 'whole').then((next) =>
          setLoaded((now) => (now.locale === locale ? next : now)),
        );
        completions.current.set(key, completion);
      }
      return completion;
    },
    [locale],
  );
  const state = useMemo<LocaleState>(
    () => ({
      locale,
      direction: directionOf(locale),
      format: createFormatters(intlLocaleOf(locale), deviceTimeZone()),
      setLocale,
      whole,
      loadWhole,
    }),
    [locale, setLocale, whole, loadWhole],
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

/**
 * The language, its direction and the switch. A switch whose catalogs cannot be loaded (no
 * connection, a deploy's file gone) leaves the app in its language and says so.
 */
export function useLocale(): LocaleState {
  const state = useLocaleState();
  const intl = useIntl();
  const { setLocale } = state;
  const switchLocale = useCallback(
    (next: AnyLocale) =>
      setLocale(next).catch(() => {
        notify.error(intl.formatMessage({ id: 'common.languageFailed' }));
      }),
    [setLocale, intl],
  );
  return useMemo(() => ({ ...state, setLocale: switchLocale }), [state, switchLocale]);
}

/** Whether the language's whole catalogs are in, and the way to load them (app/whole-catalogs.tsx). */
export function useWholeCatalogs(): Pick<LocaleState, 'whole' | 'loadWhole'> {
  const { whole, loadWhole } = useLocaleState();
  return { whole, loadWhole };
}

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

/**
 * Texts the app knows besides MSG, by their message id: the shared rules' own words, this
 * project's server's answers (apps/server: auth, OTP, rate limits), and the app's toasts raised
 * outside components (lib/toaster.ts). The English catalogs carry the same words (a test checks).
 */
export const KNOWN_TEXTS = {
  'msg.rule.countryRequired': 'Country is required',
  'msg.rule.maxDecimals': 'Amount cannot have more than 6 decimals',
  'msg.server.invalidCredentials': 'Invalid username or password',
  'msg.server.invalidTotp': 'Invalid TOTP',
  'msg.server.usernameAvailable': 'Username is available',
  'msg.server.usernameTaken': 'Username already exists',
  'msg.server.otpVerified': 'OTP verified successfully',
  'msg.server.resetEmailSent': 'A password reset OTP has been sent to your email',
  'msg.server.passwordReset': 'Password reset successfully',
  'msg.server.captchaRequired': 'Please complete the captcha',
  'msg.server.usernameSent': 'If an account exists for this email, its username has been sent.',
  'msg.server.oldPasswordIncorrect': 'Old password is incorrect',
  'msg.server.passwordChanged': 'Password changed successfully',
  'msg.server.totpAlreadyEnabled': '2FA is already enabled',
  'msg.server.totpNotEnabled': '2FA is not enabled',
  'msg.server.totpNotStarted': 'Start 2FA set-up first to get a key',
  'msg.server.otpInvalid': 'Invalid OTP',
  'msg.server.otpExpired': 'OTP has expired',
  'msg.server.otpTooManyTries': 'Too many wrong attempts. Request a new OTP.',
  'msg.server.rateLimited': 'Too many requests. Please wait a minute and try again.',
  'msg.server.busy': 'The server is busy. Please try again in a moment.',
  'msg.server.mailNotSent': 'We could not send the email. Please try again in a few minutes.',
  'app.serverUnreachable.title': 'The server cannot be reached',
  'app.serverUnreachable.help':
    'Check your connection and try again in a moment. Figures on screen show the time they are from.',
} as const satisfies Partial<Record<MessageId, string>>;

/** A known text (trimmed: a server's answer arrives trimmed) → its message id. */
const ID_BY_TEXT = new Map<string, MessageId>([
  ...Object.entries(MSG)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([key, text]) => [text.trim(), `msg.${key}` as MessageId] as const),
  ...Object.entries(KNOWN_TEXTS).map(([id, text]) => [text, id as MessageId] as const),
]);

/** The labels of tooLongMessage (packages/shared/src/messages.ts) → the catalog's select values. */
const TOO_LONG_FIELDS: Record<string, string> = {
  Username: 'username',
  Sponsor: 'sponsor',
  Name: 'name',
  Email: 'email',
  Country: 'country',
  Password: 'password',
  Subject: 'subject',
  Message: 'message',
  'Search text': 'search',
  Plan: 'plan',
};

/** The shared message functions' texts, read back into their message and values. */
const PATTERNS: readonly {
  pattern: RegExp;
  read: (match: RegExpExecArray, inner: (text: string) => string) => [MessageId, MessageValues];
}[] = [
  {
    pattern: /^(.+) must be at most (\d+) characters$/,
    read: ([, label = '', max]) => [
      'msg.tooLong',
      { field: TOO_LONG_FIELDS[label] ?? 'other', label, max: Number(max) },
    ],
  },
  {
    pattern: /^Received unknown fields? (.+)$/,
    read: ([, fields = '']) => [
      'msg.unknownFields',
      { fields, count: fields.match(/'[^']*'/g)?.length ?? 1 },
    ],
  },
  {
    pattern: /^Error fetching data: ([\s\S]*)$/,
    read: ([, message = ''], inner) => ['msg.errorFetchingData', { message: inner(message) }],
  },
  { pattern: /^Copied "([\s\S]*)"$/, read: ([, link = '']) => ['msg.copiedLink', { link }] },
];

/** `messageText(text)`; an absent text (a field without an error) stays absent. */
export interface MessageText {
  (text: string): string;
  (text: string | undefined): string | undefined;
}

/**
 * A provider's message in the member's language when the app knows it: the spec's messages (MSG)
 * by their key, the shared message functions' texts by their pattern, and KNOWN_TEXTS; any other
 * text is shown as sent.
 */
export function useMessageText(): MessageText {
  const intl = useIntl();
  return useCallback(
    (text: string | undefined) => {
      if (text === undefined) return undefined;
      const has = (id: string) => intl.messages[id] !== undefined;
      const translate = (sent: string): string => {
        const id = ID_BY_TEXT.get(sent.trim());
        if (id) return has(id) ? intl.formatMessage({ id }) : sent;
        for (const { pattern, read } of PATTERNS) {
          const match = pattern.exec(sent.trim());
          if (!match) continue;
          const [patternId, values] = read(match, translate);
          return has(patternId) ? intl.formatMessage({ id: patternId }, values) : sent;
        }
        return sent;
      };
      return translate(text);
    },
    [intl],
  ) as MessageText;
}
