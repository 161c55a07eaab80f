/**
 * Contact Support (spec §4, §5): idle → sending → sent, the form clears. With the server's
 * `support` capability the message is sent to it; otherwise (the real provider has no such call)
 * the send is simulated with the spec's 1.5 s delay and no server call.
 */
import { useEffect, useRef, useState } from 'react';
import { Box, Button, Field, Heading, Icon, Stack, Text, Textarea } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { LuCircleCheck } from 'react-icons/lu';
import type { z } from 'zod';
import { MSG, SUPPORT_SEND_DELAY_MS, supportFormSchema, type SupportForm } from '@md/shared';
import { TextField } from '@/components/form/text-field.tsx';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export type SendStatus = 'idle' | 'sending' | 'sent';
const EMPTY: SupportForm = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const config = useConfig();
  const client = useTRPCClient();
  const viaServer = hasCapability(config, 'support');
  const t = useT();
  const messageText = useMessageText();
  const [status, setStatus] = useState<SendStatus>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const againRef = useRef<HTMLButtonElement>(null);

  const {
    register,
    handleSubmit,
    reset,
    clearErrors,
    setFocus,
    formState: { errors },
  } = useForm<SupportForm, unknown, z.output<typeof supportFormSchema>>({
    resolver: zodResolver(supportFormSchema),
    defaultValues: EMPTY,
    // Spec §5: errors clear on edit and come back only with the next submit.
    reValidateMode: 'onSubmit',
  });
  // The submit button disappears when the message is sent: focus follows the state, not the body.
  const shown = useRef(status);
  useEffect(() => {
    if (status === shown.current) return;
    if (status === 'sent') againRef.current?.focus();
    if (status === 'idle' && shown.current === 'sent') setFocus('name');
    shown.current = status;
  }, [status, setFocus]);
  const field = (name: keyof SupportForm) => register(name, { onChange: () => clearErrors(name) });

  const send = async (values: z.output<typeof supportFormSchema>) => {
    setStatus('sending');
    try {
      if (viaServer) await client['support.send_message'].mutate(values);
      else await new Promise<void>((resolve) => (timer.current = setTimeout(resolve, SUPPORT_SEND_DELAY_MS)));
      reset(EMPTY);
      setStatus('sent');
    } catch (error) {
      // The message stays in the form so nothing typed is lost.
      setStatus('idle');
      notify.error(messageText(errorMessage(error, MSG.anErrorOccurred)));
    }
  };

  if (status === 'sent') {
    return (
      <Stack align="center" textAlign="center" gap="3" py="6" role="status">
        <Icon as={LuCircleCheck} boxSize="12" color="green.solid" />
        <Heading as="h3" size="lg">
          {messageText(MSG.messageSent)}
        </Heading>
        <Text color="fg.muted">{t('support.contact.thanks')}</Text>
        <Button ref={againRef} variant="outline" colorPalette="teal" onClick={() => setStatus('idle')}>
          {t('support.contact.sendAnother')}
        </Button>
      </Stack>
    );
  }

  const sending = status === 'sending';
  const nameInput = field('name');
  const emailInput = field('email');
  const subjectInput = field('subject');
  const messageInput = field('message');
  return (
    <form noValidate onSubmit={handleSubmit(send)} aria-label={t('support.contact.title')}>
      <Stack gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="4">
          <TextField
            label={t('support.contact.name')}
            autoComplete="name"
            error={errors.name?.message && messageText(errors.name.message)}
            disabled={sending}
            {...nameInput}
          />
          <TextField
            label={t('support.contact.email')}
            type="email"
            autoComplete="email"
            error={errors.email?.message && messageText(errors.email.message)}
            disabled={sending}
            {...emailInput}
          />
        </Stack>
        <TextField
          label={t('support.contact.subject')}
          error={errors.subject?.message && messageText(errors.subject.message)}
          disabled={sending}
          {...subjectInput}
        />
        <Field.Root invalid={Boolean(errors.message)} disabled={sending}>
          <Field.Label>{t('support.contact.message')}</Field.Label>
          <Textarea
            rows={5}
            resize="vertical"
            placeholder={t('support.contact.placeholder')}
            {...messageInput}
          />
          {errors.message && <Field.ErrorText>{messageText(errors.message.message ?? '')}</Field.ErrorText>}
        </Field.Root>
        <Box>
          <Button
            type="submit"
            colorPalette="teal"
            loading={sending}
            loadingText={t('support.contact.sending')}
            width={{ base: 'full', sm: 'auto' }}
          >
            {t('support.contact.send')}
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
