/** Username recovery (/forgot-username): email + ALTCHA proof-of-work captcha (spec §2, §5). */
import { useEffect, useRef, useState } from 'react';
import 'altcha';
import { Box, Button, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { MSG, forgotUsernameFormSchema } from '@md/shared';
import { AuthCard } from '@/components/form/auth-card.tsx';
import { AppLink } from '@/components/form/router-link.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { T, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

type AltchaElement = HTMLElement & { verify?: () => Promise<void> };
interface AltchaStateDetail {
  state: string;
  payload?: string;
}

/** The widget's payload, kept from its statechange event (and read from the form as a fallback). */
function useAltchaPayload(widgetRef: React.RefObject<AltchaElement | null>) {
  const [payload, setPayload] = useState<string | null>(null);
  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<AltchaStateDetail>).detail;
      setPayload(detail.state === 'verified' && detail.payload ? detail.payload : null);
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, [widgetRef]);
  return payload;
}

export default function ForgotUsernamePage() {
  const config = useConfig();
  const client = useTRPCClient();
  const navigate = useNavigate();
  const t = useT();
  const messageText = useMessageText();
  const formRef = useRef<HTMLFormElement>(null);
  const widgetRef = useRef<AltchaElement>(null);
  const captchaEnabled = Boolean(config.captchaChallengeUrl) && hasCapability(config, 'captcha');
  const statePayload = useAltchaPayload(widgetRef);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof forgotUsernameFormSchema>, unknown, z.output<typeof forgotUsernameFormSchema>>({
    resolver: zodResolver(forgotUsernameFormSchema),
    defaultValues: { email: '' },
  });

  const captchaPayload = async (): Promise<string | undefined> => {
    if (!captchaEnabled) return undefined;
    const fromForm = () => (formRef.current ? new FormData(formRef.current).get('altcha') : null);
    let payload = statePayload ?? fromForm();
    if (!payload && widgetRef.current?.verify) {
      // Not solved yet (e.g. submitted quickly): solve now, then read it again.
      await widgetRef.current.verify();
      payload = fromForm();
    }
    return typeof payload === 'string' && payload ? payload : undefined;
  };

  const requestUsername = async ({ email }: { email: string }) => {
    try {
      const captcha = await captchaPayload();
      if (captchaEnabled && !captcha) {
        notify.error(t('msg.server.captchaRequired'));
        return;
      }
      const response = await client['user.forgot_username'].mutate({
        email,
        ...(captcha ? { captcha } : {}),
      });
      notify.success(messageText(textOf(recordOf(response)?.Success) || t('auth.forgotUsername.sent')));
      navigate('/');
    } catch (error) {
      notify.error(messageText(errorMessage(error, MSG.anErrorOccurred)));
    }
  };

  // The inputs' bindings, named outside the markup (its lint reads string arguments there as text).
  const emailInput = register('email');
  // The widget's own words (ALTCHA reads them as JSON), in the member's language.
  const captchaStrings = JSON.stringify({
    label: t('auth.captcha.label'),
    verifying: t('auth.captcha.verifying'),
    verified: t('auth.captcha.verified'),
    error: t('auth.captcha.error'),
    expired: t('auth.captcha.expired'),
    waitAlert: t('auth.captcha.waitAlert'),
  });

  return (
    <AuthCard
      title={t('auth.forgotUsername.title')}
      footer={
        <Text fontSize="sm" color="fg.muted">
          <T
            id="auth.forgotUsername.remembered"
            values={{ link: (chunks) => <AppLink to="/">{chunks}</AppLink> }}
          />
        </Text>
      }
    >
      <form ref={formRef} noValidate onSubmit={handleSubmit(requestUsername)}>
        <Stack gap="4">
          <Text color="fg.muted">{t('auth.forgotUsername.intro')}</Text>
          <TextField
            label={t('auth.email')}
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...emailInput}
          />
          {captchaEnabled && (
            <Box data-testid="captcha">
              <altcha-widget
                ref={widgetRef}
                challengeurl={config.captchaChallengeUrl}
                name="altcha"
                auto="onload"
                hidelogo
                hidefooter
                strings={captchaStrings}
              />
            </Box>
          )}
          <Button
            type="submit"
            colorPalette="teal"
            loading={isSubmitting}
            loadingText={t('auth.forgotUsername.requesting')}
          >
            {t('auth.forgotUsername.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
