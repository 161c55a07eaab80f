/**
 * Sign-in (/): username, password, and a TOTP field when the member has TOTP on (spec §2, §4, §5).
 * The first screen most visits open, so it loads only what signing in needs: drawn with the first
 * screen's classes (components/first-screen) rather than Chakra's runtime, and its form is plain
 * React state checked against the shared rules rather than a form library.
 */
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MSG, TEXT_MAX, TOTP_LOOKUP_DEBOUNCE_MS, type LoginForm } from '@md/shared';
import {
  FirstScreenField,
  FirstScreenPasswordField,
} from '@/components/first-screen/first-screen-fields.tsx';
import { AuthCard } from '@/components/form/auth-card.tsx';
import { keepOtpDigits, OTP_INPUT_PROPS } from '@/components/form/otp-input.ts';
import { AppLink } from '@/components/form/router-link.tsx';
import { useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { preloadMessages } from '@/lib/i18n/catalogs.ts';
import { T, useLocale, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { useStartSession } from './use-start-session.ts';

/**
 * The form's rules (zod and the shared rules) are most of what sign-in would download up front:
 * they load when a field first takes focus, or at the latest on submit.
 */
const fetchLoginRules = () => import('@md/shared/rules').then(({ loginFormSchema }) => loginFormSchema);
let loginRules: ReturnType<typeof fetchLoginRules> | undefined;
const loadLoginRules = () =>
  (loginRules ??= fetchLoginRules().catch((error: unknown) => {
    loginRules = undefined; // a failed load is tried again next time
    throw error;
  }));

const FIELDS = ['username', 'password', 'totp'] as const;
type Field = (typeof FIELDS)[number];
type Errors = Partial<Record<Field, string>>;

/** The form's values checked against the rules: the values to send, or each field's first error. */
async function checkLogin(
  values: LoginForm,
  totpRequired: boolean,
): Promise<{ values: LoginForm; errors?: never } | { errors: Errors; values?: never }> {
  const result = (await loadLoginRules())(totpRequired).safeParse(values);
  if (result.success) return { values: result.data };
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return { errors };
}

/** Asks the server whether the typed username has TOTP on, 500 ms after typing stops. */
function useTotpRequired(username: string): boolean {
  const trpc = useTRPC();
  const messageText = useMessageText();
  const debounced = useDebouncedValue(username.trim(), TOTP_LOOKUP_DEBOUNCE_MS);
  // A name over the length limit is no member's (the form says so): no lookup, no error toast.
  const lookup = useQuery(
    trpc['user.view_country'].queryOptions(
      { username: debounced },
      { enabled: debounced.length > 0 && debounced.length <= TEXT_MAX.username },
    ),
  );
  const { error } = lookup;
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (error) queueMicrotask(() => notify.error(messageText(errorMessage(error, MSG.failedCheckTotp))));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new language does not toast the error again
  }, [error, lookup.errorUpdatedAt]);
  // Only a plain `true` asks for the code; any other answer signs in without it.
  return debounced.length > 0 && (lookup.data as { Success?: unknown } | undefined)?.Success === true;
}

export function SignInPage() {
  const config = useConfig();
  const client = useTRPCClient();
  const startSession = useStartSession();
  const t = useT();
  const messageText = useMessageText();
  const { locale } = useLocale();
  // A member at work in the form is about to sign in: the rules, and the rest of the language's
  // catalogs the dashboard reads, start loading.
  const onFirstFocus = () => {
    void loadLoginRules().catch(() => undefined);
    preloadMessages(locale);
  };

  const [values, setValues] = useState<LoginForm>({ username: '', password: '', totp: '' });
  const [errors, setErrors] = useState<Errors>({});
  // Once per submit, however it is sent (Enter twice, Enter and a click in one frame): one sign-in.
  const { run, pending: isSubmitting } = useSingleFlight();
  // After the first submit, each change checks the form again (as the member fixes it).
  const submitted = useRef(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  // The server's own answer 'TOTP is required' also asks for the code: the lookup above may have
  // failed or be stale, and without the field the member could never sign in.
  const [totpAskedFor, setTotpAskedFor] = useState<string | null>(null);
  const totpLookup = useTotpRequired(values.username);
  const totpRequired = totpLookup || (totpAskedFor !== null && totpAskedFor === values.username.trim());
  useEffect(() => {
    // Once the field is there, the cursor waits in it.
    if (totpAskedFor !== null) inputs.current.totp?.focus();
  }, [totpAskedFor]);

  const recheck = (next: LoginForm) =>
    void checkLogin(next, totpRequired)
      .then((checked) => setErrors(checked.errors ?? {}))
      .catch(() => undefined);

  const field = (name: Field) => ({
    name,
    value: values[name] ?? '',
    error: messageText(errors[name]),
    ref: (input: HTMLInputElement | null) => void (inputs.current[name] = input),
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted.current) recheck(next);
    },
  });

  const signIn = async (checked: LoginForm) => {
    try {
      const response = await client['user.login'].mutate({
        username: checked.username,
        password: checked.password,
        ...(totpRequired && checked.totp ? { totp: checked.totp } : {}),
      });
      await startSession(response, MSG.loginSuccessful);
    } catch (error) {
      const message = errorMessage(error, MSG.loginFailed);
      if (message === MSG.totpRequired) {
        // The field says it, where the code goes (a lookup that failed has toasted already): no second toast.
        if (!totpRequired) setTotpAskedFor(checked.username.trim());
        else inputs.current.totp?.focus();
        setErrors((current) => ({ ...current, totp: message }));
        return;
      }
      notify.error(messageText(message));
    }
  };

  const submit = async () => {
    submitted.current = true;
    try {
      const checked = await checkLogin(values, totpRequired);
      setErrors(checked.errors ?? {});
      if (checked.errors) {
        const first = FIELDS.find((name) => checked.errors[name]);
        if (first) inputs.current[first]?.focus();
        notify.error(messageText(MSG.fixFormErrors));
        return;
      }
      await signIn(checked.values);
    } catch (error) {
      notify.error(messageText(errorMessage(error, MSG.loginFailed)));
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(submit);
  };

  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const usernameField = field('username');
  const passwordField = field('password');
  const totpField = field('totp');

  return (
    <AuthCard
      title={t('auth.signIn.title')}
      subtitle={t('auth.signIn.subtitle')}
      footer={
        <p className="fs-muted fs-small">
          <T
            id="auth.signIn.sponsorLink"
            values={{ link: (chunks) => <AppLink to="/register">{chunks}</AppLink> }}
          />
        </p>
      }
    >
      <form noValidate onFocus={onFirstFocus} onSubmit={onSubmit}>
        <div className="fs-stack">
          <FirstScreenField
            label={t('auth.username')}
            autoComplete="username"
            autoCapitalize="none"
            blockCut
            {...usernameField}
          />
          <FirstScreenPasswordField label={t('auth.password')} blockCut {...passwordField} />
          {totpRequired && (
            <FirstScreenField
              label={t('auth.totp')}
              code
              {...OTP_INPUT_PROPS}
              {...totpField}
              onChange={(event) => {
                keepOtpDigits(event);
                totpField.onChange(event);
              }}
            />
          )}
          <div className="fs-row">
            <AppLink to="/forgot-username">{t('auth.signIn.forgotUsername')}</AppLink>
            <AppLink to="/forgot-password">{t('auth.signIn.forgotPassword')}</AppLink>
          </div>
          <button type="submit" className="fs-button" disabled={isSubmitting}>
            {isSubmitting ? t('auth.signIn.submitting') : t('auth.signIn.submit')}
          </button>
          {config.demoHint && (
            <p className="fs-muted fs-small fs-centre" data-testid="demo-hint">
              {t('auth.signIn.demo', {
                username: config.demoHint.username,
                password: config.demoHint.password,
              })}
            </p>
          )}
        </div>
      </form>
    </AuthCard>
  );
}
