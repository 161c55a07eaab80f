/**
 * The deposit form (Deposit and Wallet tabs): amount in USDT (BEP20 only) → a payment to send.
 * Deposit opens one window however it is clicked (a synchronous guard, useSingleFlight).
 */
import { useState } from 'react';
import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { depositAmountField } from '@md/shared';
import { TextField } from '@/components/form/text-field.tsx';
import { useConfig } from '@/lib/config.tsx';
import { useT } from '@/lib/i18n/i18n.tsx';
import { recordOf } from '@/lib/guards.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { SILENT, useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { PaymentDetails, type Payment } from './payment-details.tsx';

const depositFormSchema = z.object({ amount: depositAmountField });
type DepositForm = z.input<typeof depositFormSchema>;
/** Deposits are USDT on BEP20 only (the product's one accepted currency here). */
const CURRENCY = 'USDT.BEP20';

export function DepositForm() {
  const trpc = useTRPC();
  const config = useConfig();
  const t = useT();
  const queryClient = useQueryClient();
  const [payment, setPayment] = useState<{ details: Payment; openedAt: number } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<DepositForm>({ resolver: zodResolver(depositFormSchema), defaultValues: { amount: '' } });
  const client = useTRPCClient();
  const makePayment = useSingleFlight();
  const moveMoney = useMoneyMove();

  const amountField = register('amount');
  const onSubmit = handleSubmit(({ amount }) =>
    makePayment.run(async () => {
      const outcome = await moveMoney({
        action: t('deposit.form.action'),
        send: (options) =>
          client['deposit.make_payment'].mutate(
            { amount_usdt: Number(amount), currency: CURRENCY, gateway: config.depositGateway },
            options,
          ),
        // The payment details are the answer; the payment call fails silently (spec §8).
        success: () => null,
        failure: SILENT,
      });
      // An answer without payment details is a failed payment call: silent too (spec §8).
      const details =
        outcome.status === 'done' ? recordOf<Payment>(recordOf(outcome.answer)?.Success) : undefined;
      setPayment(details ? { details, openedAt: Date.now() } : null);
      if (outcome.status === 'refused') return;
      // The new pending deposit belongs in the Deposit History below.
      void queryClient.invalidateQueries({ queryKey: trpc['table.view_deposit_transaction'].pathKey() });
      void queryClient.invalidateQueries({
        queryKey: trpc['table.total_pagination_deposit_transaction'].pathKey(),
      });
    }),
  );

  return (
    <Stack gap="5">
      <form onSubmit={onSubmit} noValidate>
        <Flex
          gap="3"
          align={{ base: 'stretch', sm: 'end' }}
          direction={{ base: 'column', sm: 'row' }}
          maxW="xl"
        >
          <TextField
            label={t('deposit.form.amount')}
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('deposit.form.minimum')}
            error={errors.amount?.message}
            {...amountField}
          />
          <Button
            type="submit"
            colorPalette="teal"
            loading={makePayment.pending}
            flexShrink={0}
            mb={errors.amount ? '6' : '0'}
          >
            {t('deposit.form.submit')}
          </Button>
        </Flex>
        <Text fontSize="sm" color="fg.muted" mt="2">
          {t('deposit.form.currency')}
        </Text>
      </form>
      {payment && <PaymentDetails payment={payment.details} openedAt={payment.openedAt} />}
    </Stack>
  );
}
