/**
 * Registration (/register?sponsor=&side=): step 1 the account form, which mails an OTP
 * (verify_otp, page 'Email Verification'); step 2 the OTP, which creates the account (DESIGN §3).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import {
  MSG,
  REGISTRATION_PROJECT,
  TEXT_MAX,
  TOTP_LOOKUP_DEBOUNCE_MS,
  registrationFormSchema,
  registrationOtpSchema,
  sideFromQuery,
  sideOf,
  type RegistrationForm,
} from '@md/shared';
import { AuthCard } from '@/components/form/auth-card.tsx';
import { CountryField, countryFromLanguages } from '@/components/form/country-field.tsx';
import { OtpField } from '@/components/form/otp-field.tsx';
import { PasswordChecklist } from '@/components/form/password-checklist.tsx';
import { AppLink } from '@/components/form/router-link.tsx';
import { SelectField } from '@/components/form/select-field.tsx';
import { PasswordField, TextField } from '@/components/form/text-field.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { T, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { useDebouncedValue } from '@/lib/use-debounced-value.ts';
import { useStartSession } from './use-start-session.ts';

type RegistrationValues = z.output<typeof registrationFormSchema>;
type RegistrationFormApi = UseFormReturn<RegistrationForm, unknown, RegistrationValues>;

/** Names the server could accept: letters, digits and _, not only digits, within the length limit. */
const isPlausibleUsername = (v: string) =>
  v.length <= TEXT_MAX.username && /^[A-Za-z0-9_]+$/.test(v) && !/^\d+$/.test(v);

export type UsernameState =
  { status: 'idle' } | { status: 'checking' } | { status: 'available' | 'taken' | 'error'; message: string };

/** Live availability of the typed username (Status true = free). */
function useUsernameAvailability(username: string): UsernameState {
  const trpc = useTRPC();
  const t = useT();
  const debounced = useDebouncedValue(username.trim().toLowerCase(), TOTP_LOOKUP_DEBOUNCE_MS);
  const enabled = isPlausibleUsername(debounced);
  const check = useQuery(
    trpc['user.check_username_available'].queryOptions({ username: debounced }, { enabled }),
  );
  if (!enabled) return { status: 'idle' };
  if (check.isError) return { status: 'error', message: errorMessage(check.error, MSG.usernameCheckFailed) };
  if (!check.data) return { status: 'checking' };
  const answer = recordOf(check.data);
  // An answer without a boolean Status says nothing about the name: the check failed.
  if (typeof answer?.Status !== 'boolean') return { status: 'error', message: MSG.usernameCheckFailed };
  const free = answer.Status;
  return {
    status: free ? 'available' : 'taken',
    message:
      textOf(answer.Success) ||
      (free ? t('auth.register.usernameAvailable') : t('auth.register.usernameTaken')),
  };
}

export type SponsorState = 'unknown' | 'checking' | 'valid' | 'invalid' | 'error';

/** A sponsor is valid when the name exists, i.e. check_username_available answers Status false. */
function useSponsorCheck(sponsor: string, immediate: boolean): SponsorState {
  const trpc = useTRPC();
  const debounced = useDebouncedValue(sponsor.trim().toLowerCase(), immediate ? 0 : TOTP_LOOKUP_DEBOUNCE_MS);
  const name = immediate ? sponsor.trim().toLowerCase() : debounced;
  const check = useQuery(
    trpc['user.check_username_available'].queryOptions({ username: name }, { enabled: name.length > 0 }),
  );
  if (!name) return 'unknown';
  if (check.isError) return 'error';
  if (!check.data) return 'checking';
  const status = recordOf(check.data)?.Status;
  // Without a boolean Status the sponsor cannot be validated (not the same as not existing).
  if (typeof status !== 'boolean') return 'error';
  return status === false ? 'valid' : 'invalid';
}

function InvalidSponsor() {
  const navigate = useNavigate();
  const t = useT();
  const messageText = useMessageText();
  // Spec §8 'Invalid sponsor': toasted once as the long message replaces the form (§2, §5).
  const toasted = useRef(false);
  useEffect(() => {
    if (toasted.current) return;
    toasted.current = true;
    queueMicrotask(() => notify.error(messageText(MSG.invalidSponsor)));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, in the language of the moment
  }, []);
  return (
    <AuthCard title={t('auth.register.title')}>
      <Stack gap="4">
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{messageText(MSG.invalidSponsorLong)}</Alert.Title>
        </Alert.Root>
        <Button colorPalette="teal" onClick={() => navigate('/')}>
          {t('auth.backToLogin')}
        </Button>
      </Stack>
    </AuthCard>
  );
}

function UsernameHint({ state }: { state: UsernameState }) {
  const t = useT();
  const messageText = useMessageText();
  if (state.status === 'idle') return null;
  if (state.status === 'checking')
    return (
      <HStack gap="2" color="fg.muted">
        <Spinner size="xs" /> {t('auth.register.checking')}
      </HStack>
    );
  return (
    <Text
      color={state.status === 'available' ? 'green.fg' : 'red.fg'}
      data-testid="username-availability"
      aria-live="polite"
    >
      {messageText(state.message)}
    </Text>
  );
}

interface AccountStepProps {
  form: RegistrationFormApi;
  sponsorLocked: boolean;
  sideLocked: boolean;
  sponsorState: SponsorState;
  usernameState: UsernameState;
  countries: string[];
  onSubmit: (values: RegistrationValues) => Promise<void>;
}

function AccountStep({
  form,
  sponsorLocked,
  sideLocked,
  sponsorState,
  usernameState,
  countries,
  onSubmit,
}: AccountStepProps) {
  const {
    register,
    handleSubmit,
    watch,
    control,
    formState: { errors, isValid, isSubmitting, isDirty, touchedFields },
  } = form;
  const t = useT();
  const messageText = useMessageText();
  const sideOptions = [
    { value: '0', label: t('auth.sideLeft') },
    { value: '1', label: t('auth.sideRight') },
  ];
  // Without a sponsor in the link the member must type one: say so as soon as they start on the
  // form or leave the field, not only by a disabled button.
  const sponsorMissing =
    !sponsorLocked && !(watch('sponsor') ?? '').trim() && (isDirty || Boolean(touchedFields.sponsor));
  // The field says it in the member's language (TextField translates the spec's messages).
  const sponsorError =
    errors.sponsor?.message ??
    (sponsorMissing
      ? MSG.sponsorRequired
      : sponsorState === 'invalid'
        ? MSG.checkSponsor
        : sponsorState === 'error'
          ? MSG.failedValidateSponsor
          : undefined);
  const canSubmit = isValid && usernameState.status !== 'taken' && sponsorState === 'valid' && !isSubmitting;

  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const usernameInput = register('username');
  const nameInput = register('name');
  const sponsorInput = register('sponsor');
  const emailInput = register('email');
  const sideInput = register('side');
  const passwordInput = register('password');
  const conPasswordInput = register('con_password');
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit, () => notify.error(messageText(MSG.fixFormErrors)))}>
      <Stack gap="4">
        <TextField
          label={t('auth.username')}
          autoComplete="username"
          autoCapitalize="none"
          error={errors.username?.message}
          helper={<UsernameHint state={usernameState} />}
          {...usernameInput}
        />
        <TextField
          label={t('auth.fullName')}
          autoComplete="name"
          error={errors.name?.message}
          {...nameInput}
        />
        <TextField
          label={t('auth.sponsor')}
          autoCapitalize="none"
          readOnly={sponsorLocked}
          error={sponsorError}
          helper={
            sponsorLocked || sponsorState === 'valid' ? (
              <>
                {sponsorLocked && <Text>{t('auth.register.sponsorFromLink')}</Text>}
                {sponsorState === 'valid' && (
                  <Text color="green.fg">
                    {sideLocked && sideOf(form.getValues('side')) !== null
                      ? t('auth.register.sponsorVerifiedLeg', {
                          side: sideOf(form.getValues('side')) === '0' ? 'left' : 'right',
                        })
                      : t('auth.register.sponsorVerified')}
                  </Text>
                )}
              </>
            ) : undefined
          }
          {...sponsorInput}
        />
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...emailInput}
        />
        <Controller
          control={control}
          name="country"
          render={({ field }) => (
            <CountryField
              label={t('auth.country')}
              countries={countries}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
              error={errors.country?.message}
            />
          )}
        />
        {!sideLocked && (
          <SelectField
            label={t('auth.side')}
            options={sideOptions}
            error={errors.side?.message}
            {...sideInput}
          />
        )}
        <PasswordField
          label={t('auth.password')}
          autoComplete="new-password"
          error={errors.password?.message}
          helper={<PasswordChecklist password={watch('password') ?? ''} />}
          {...passwordInput}
        />
        <PasswordField
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          error={errors.con_password?.message}
          {...conPasswordInput}
        />
        <Button
          type="submit"
          colorPalette="teal"
          width="full"
          disabled={!canSubmit}
          loading={isSubmitting}
          loadingText={t('auth.register.sendingOtp')}
        >
          {t('auth.register.submit')}
        </Button>
      </Stack>
    </form>
  );
}

function OtpStep({
  email,
  onBack,
  onVerify,
}: {
  email: string;
  onBack: () => void;
  onVerify: (otp: string) => Promise<void>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ otp: string }>({ resolver: zodResolver(registrationOtpSchema), defaultValues: { otp: '' } });
  const t = useT();
  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const otpInput = register('otp');
  return (
    <form noValidate onSubmit={handleSubmit(({ otp }) => onVerify(otp))}>
      <Stack gap="4">
        <Text color="fg.muted">{t('auth.register.codeSent', { email })}</Text>
        <OtpField label={t('auth.otp')} error={errors.otp?.message} {...otpInput} />
        <HStack gap="3">
          <Button variant="outline" onClick={onBack} disabled={isSubmitting}>
            {t('auth.register.back')}
          </Button>
          <Button
            type="submit"
            colorPalette="teal"
            flex="1"
            loading={isSubmitting}
            loadingText={t('auth.register.verifying')}
          >
            {t('auth.register.verify')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

export default function RegisterPage() {
  const [searchParams] = useSearchParams();
  const sponsorFromQuery = searchParams.get('sponsor')?.trim() ?? '';
  const sideQuery = searchParams.get('side');
  const trpc = useTRPC();
  const client = useTRPCClient();
  const startSession = useStartSession();
  const t = useT();
  const messageText = useMessageText();
  const [step, setStep] = useState<1 | 2>(1);
  const [submitted, setSubmitted] = useState<RegistrationValues | null>(null);

  const form = useForm<RegistrationForm, unknown, RegistrationValues>({
    mode: 'onChange',
    resolver: zodResolver(registrationFormSchema),
    defaultValues: {
      username: '',
      name: '',
      sponsor: sponsorFromQuery,
      email: '',
      password: '',
      con_password: '',
      side: sideFromQuery(sideQuery),
      country: '',
    },
  });

  const countries = useQuery(trpc['user.view_country'].queryOptions({}));
  const countryList = useMemo(() => {
    const list = recordOf(countries.data)?.Success;
    return Array.isArray(list)
      ? list.filter((country): country is string => typeof country === 'string' && country !== '')
      : [];
  }, [countries.data]);
  const { error: countriesError } = countries;
  useEffect(() => {
    // Toasts leave the render cycle first (the toaster flushes synchronously).
    if (countriesError)
      queueMicrotask(() => notify.error(messageText(errorMessage(countriesError, MSG.failedLoadCountries))));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new language does not toast the error again
  }, [countriesError]);
  // The default: the browser's country when its language names one (en-GB), else the first (spec §3).
  useEffect(() => {
    if (!countryList[0] || form.getValues('country')) return;
    const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
    form.setValue('country', countryFromLanguages(languages, countryList) ?? countryList[0], {
      shouldValidate: true,
    });
  }, [countryList, form]);

  const usernameState = useUsernameAvailability(form.watch('username') ?? '');
  const sponsorState = useSponsorCheck(form.watch('sponsor') ?? '', Boolean(sponsorFromQuery));

  if (sponsorFromQuery && sponsorState === 'invalid') return <InvalidSponsor />;

  const sendOtp = async (values: RegistrationValues) => {
    try {
      await client['user.verify_otp'].mutate({
        page: 'Email Verification',
        username: values.username,
        email: values.email,
        project: REGISTRATION_PROJECT,
      });
      notify.success(messageText(MSG.otpSent));
      setSubmitted(values);
      setStep(2);
    } catch (error) {
      // /user/verify_otp's fallback; no answer at all: the OTP was not sent (docs/decisions/web-app.md).
      notify.error(messageText(errorMessage(error, MSG.otpVerificationFailed, MSG.failedSendOtp)));
    }
  };

  const registerAccount = async (otp: string) => {
    if (!submitted) return;
    try {
      const response = await client['user.register'].mutate({
        username: submitted.username,
        name: submitted.name,
        sponsor: submitted.sponsor,
        email: submitted.email,
        password: submitted.password,
        conpassword: submitted.con_password,
        otp,
        side: submitted.side,
        country: submitted.country,
        project: REGISTRATION_PROJECT,
      });
      await startSession(response, MSG.registrationSuccessful);
    } catch (error) {
      notify.error(messageText(errorMessage(error, MSG.registrationFailed)));
    }
  };

  return (
    <AuthCard
      title={step === 1 ? t('auth.register.title') : t('auth.register.verifyTitle')}
      subtitle={step === 1 ? t('auth.register.subtitle') : undefined}
      footer={
        <Text fontSize="sm" color="fg.muted">
          <T
            id="auth.register.alreadyMember"
            values={{ link: (chunks) => <AppLink to="/">{chunks}</AppLink> }}
          />
        </Text>
      }
    >
      {step === 1 ? (
        <AccountStep
          form={form}
          sponsorLocked={Boolean(sponsorFromQuery)}
          sideLocked={sideQuery !== null}
          sponsorState={sponsorState}
          usernameState={usernameState}
          countries={countryList}
          onSubmit={sendOtp}
        />
      ) : (
        <OtpStep email={submitted?.email ?? ''} onBack={() => setStep(1)} onVerify={registerAccount} />
      )}
    </AuthCard>
  );
}
