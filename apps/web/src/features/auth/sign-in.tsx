/** Sign-in (/): username, password, and a TOTP field when the member has TOTP on (spec §2, §4, §5). */
import { useEffect, useRef, useState } from 'react';
import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useForm, type Resolver } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { MSG, TEXT_MAX, TOTP_LOOKUP_DEBOUNCE_MS, type LoginForm } from '@md/shared';
import { AuthCard } from '@/components/form/auth-card.tsx';
import { OtpField } from '@/components/form/otp-field.tsx';
import { AppLink } from '@/components/form/router-link.tsx';
import { PasswordField, TextField } from '@/components/form/text-field.tsx';
import { useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useStartSession } from './use-start-session.ts';

/**
 * The form's validation (zod's full API and the shared rules) is most of what sign-in would
 * download up front: it loads when a field first takes focus, or at the latest on submit.
 */
const fetchLoginValidation = () =>
  Promise.all([import('@hookform/resolvers/zod'), import('@md/shared/rules')]).then(
    ([{ zodResolver }, { loginFormSchema }]) => ({ zodResolver, loginFormSchema }),
  );
let loginValidation: ReturnType<typeof fetchLoginValidation> | undefined;
const loadLoginValidation = () =>
  (loginValidation ??= fetchLoginValidation().catch((error: unknown) => {
    loginValidation = undefined; // a failed load is tried again next time
    throw error;
  }));

/** Asks the server whether the typed username has TOTP on, 500 ms after typing stops. */
function useTotpRequired(username: string): boolean {
  const trpc = useTRPC();
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
    if (error) queueMicrotask(() => notify.error(errorMessage(error, MSG.failedCheckTotp)));
  }, [error, lookup.errorUpdatedAt]);
  // Only a plain `true` asks for the code; any other answer signs in without it.
  return debounced.length > 0 && (lookup.data as { Success?: unknown } | undefined)?.Success === true;
}

export function SignInPage() {
  const config = useConfig();
  const client = useTRPCClient();
  const startSession = useStartSession();

  const totpRequiredRef = useRef(false);
  // The schema depends on the live TOTP lookup, so the resolver reads it at validation time.
  const resolver: Resolver<LoginForm> = async (values, context, options) => {
    const { zodResolver, loginFormSchema } = await loadLoginValidation();
    return zodResolver(loginFormSchema(totpRequiredRef.current))(values, context, options);
  };
  const {
    register,
    handleSubmit,
    watch,
    setFocus,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver, defaultValues: { username: '', password: '', totp: '' } });

  const username = watch('username');
  // The server's own answer 'TOTP is required' also asks for the code: the lookup above may have
  // failed or be stale, and without the field the member could never sign in.
  const [totpAskedFor, setTotpAskedFor] = useState<string | null>(null);
  const totpLookup = useTotpRequired(username);
  const totpRequired = totpLookup || (totpAskedFor !== null && totpAskedFor === username.trim());
  totpRequiredRef.current = totpRequired;
  useEffect(() => {
    // Once the field is there, the cursor waits in it.
    if (totpAskedFor !== null) setFocus('totp');
  }, [totpAskedFor, setFocus]);

  const onValid = async (values: LoginForm) => {
    try {
      const response = await client['user.login'].mutate({
        username: values.username,
        password: values.password,
        ...(totpRequired && values.totp ? { totp: values.totp } : {}),
      });
      await startSession(response, MSG.loginSuccessful);
    } catch (error) {
      const message = errorMessage(error, MSG.loginFailed);
      if (message === MSG.totpRequired) {
        // The field says it, where the code goes (a lookup that failed has toasted already): no second toast.
        if (!totpRequired) setTotpAskedFor(values.username.trim());
        setError('totp', { message });
        return;
      }
      notify.error(message);
    }
  };

  return (
    <AuthCard
      title="Sign In"
      subtitle="Welcome back. Sign in to your member dashboard."
      footer={
        <Text fontSize="sm" color="fg.muted">
          Have a sponsor link? <AppLink to="/register">Create an account</AppLink>
        </Text>
      }
    >
      <form
        noValidate
        onFocus={() => void loadLoginValidation().catch(() => undefined)}
        onSubmit={handleSubmit(onValid, () => notify.error(MSG.fixFormErrors))}
      >
        <Stack gap="4">
          <TextField
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            blockCut
            error={errors.username?.message}
            {...register('username')}
          />
          <PasswordField
            label="Password"
            blockCut
            error={errors.password?.message}
            {...register('password')}
          />
          {totpRequired && (
            <OtpField
              label="TOTP"
              autoComplete="one-time-code"
              error={errors.totp?.message}
              {...register('totp')}
            />
          )}
          <HStack justify="space-between" fontSize="sm" flexWrap="wrap">
            <AppLink to="/forgot-username">Forgot username?</AppLink>
            <AppLink to="/forgot-password">Forgot password?</AppLink>
          </HStack>
          <Button type="submit" colorPalette="teal" width="full" disabled={isSubmitting}>
            {isSubmitting ? 'Signing in...' : 'Sign In'}
          </Button>
          {config.demoHint && (
            <Text fontSize="sm" color="fg.muted" textAlign="center" data-testid="demo-hint">
              Demo: {config.demoHint.username} / {config.demoHint.password}
            </Text>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
