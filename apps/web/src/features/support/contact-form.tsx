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
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';

export type SendStatus = 'idle' | 'sending' | 'sent';
const EMPTY: SupportForm = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const config = useConfig();
  const client = useTRPCClient();
  const viaServer = hasCapability(config, 'support');
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
      notify.error(errorMessage(error, MSG.anErrorOccurred));
    }
  };

  if (status === 'sent') {
    return (
      <Stack align="center" textAlign="center" gap="3" py="6" role="status">
        <Icon as={LuCircleCheck} boxSize="12" color="green.solid" />
        <Heading as="h3" size="lg">
          {MSG.messageSent}
        </Heading>
        <Text color="fg.muted">Thank you for contacting us. Our team will get back to you by email.</Text>
        <Button ref={againRef} variant="outline" colorPalette="teal" onClick={() => setStatus('idle')}>
          Send another message
        </Button>
      </Stack>
    );
  }

  const sending = status === 'sending';
  return (
    <form noValidate onSubmit={handleSubmit(send)} aria-label="Contact Support">
      <Stack gap="4">
        <Stack direction={{ base: 'column', sm: 'row' }} gap="4">
          <TextField
            label="Name"
            autoComplete="name"
            error={errors.name?.message}
            disabled={sending}
            {...field('name')}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            disabled={sending}
            {...field('email')}
          />
        </Stack>
        <TextField label="Subject" error={errors.subject?.message} disabled={sending} {...field('subject')} />
        <Field.Root invalid={Boolean(errors.message)} disabled={sending}>
          <Field.Label>Message</Field.Label>
          <Textarea rows={5} resize="vertical" placeholder="How can we help?" {...field('message')} />
          {errors.message && <Field.ErrorText>{errors.message.message}</Field.ErrorText>}
        </Field.Root>
        <Box>
          <Button
            type="submit"
            colorPalette="teal"
            loading={sending}
            loadingText="Sending..."
            width={{ base: 'full', sm: 'auto' }}
          >
            Send Message
          </Button>
        </Box>
      </Stack>
    </form>
  );
}
