/**
 * Withdrawal Request (spec §4, §5): the amount, checked (minimum 20, a transaction password set),
 * then the server's fee in a confirmation dialog, then the transaction password. The request is sent
 * once however Submit Withdrawal is clicked (a synchronous guard, useSingleFlight).
 */
import { useState } from 'react';
import { Alert, Box, Button, Stack, Text } from '@chakra-ui/react';
import { MIN_WITHDRAWAL, MSG, shortenAddress, truncate2, withdrawalAmountField } from '@md/shared';
import { PasswordPromptDialog } from '@/components/form/password-prompt-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { availableOf, useRefreshWallets, type Wallets } from '@/lib/wallets.ts';
import { DestinationAddress, WithdrawalFeeDialog, type WithdrawalQuote } from './withdrawal-fee-dialog.tsx';

export function WithdrawalForm({ wallets }: { wallets: Wallets | undefined }) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const client = useTRPCClient();
  const { profile } = useAuth();
  const refreshWallets = useRefreshWallets();
  const [amount, setAmount] = useState('');
  const [quote, setQuote] = useState<WithdrawalQuote | null>(null);
  const [step, setStep] = useState<'amount' | 'fee' | 'password'>('amount');
  const [busy, setBusy] = useState(false);
  const requesting = useSingleFlight();
  const moveMoney = useMoneyMove();

  const available = availableOf(wallets, 'Withdrawal');
  const address = profile?.Wallet_Details?.Wallet_Address;
  const value = parseFloat(amount);
  // Spec §5: disabled when the amount is 0 (or empty) or above the available balance.
  const disabled = !(value > 0) || value > (available ?? 0);

  const requestFees = async () => {
    const parsed = withdrawalAmountField.safeParse(amount);
    if (!parsed.success) return notify.error(messageText(MSG.withdrawalMin));
    if (!profile?.Transaction_Password) return notify.error(messageText(MSG.setTransactionPassword));
    setBusy(true);
    try {
      const response: unknown = await client['withdraw.withdraw_fees'].query({ amount: value });
      const feePercent = numberOf(recordOf(response)?.Success);
      // Without a fee percentage there is nothing to confirm: the fee could not be calculated.
      if (feePercent === undefined) return notify.error(messageText(MSG.failedWithdrawFees));
      const fee = truncate2((value * feePercent) / 100);
      setQuote({ amount: value, feePercent, fee, finalAmount: truncate2(value - fee) });
      setStep('fee');
    } catch (error) {
      notify.error(messageText(errorMessage(error, MSG.failedWithdrawFees)));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setStep('amount');
    setQuote(null);
  };

  const submit = (password: string) =>
    requesting.run(async () => {
      if (!quote) return;
      const outcome = await moveMoney({
        action: t('wallets.action.withdrawal'),
        wallet: 'Withdrawal',
        send: (options) =>
          client['withdraw.withdraw_request'].mutate({ amount: quote.amount, password }, options),
        success: (answer) =>
          messageText(textOf(recordOf(answer)?.Success) || t('wallets.withdrawal.requested')),
        failure: (error) => messageText(errorMessage(error, MSG.anErrorOccurred)),
      });
      if (outcome.status === 'refused') return;
      if (outcome.status === 'done') setAmount('');
      close();
      void refreshWallets();
    });

  return (
    <Stack gap="4" maxW="2xl">
      <Box>
        <Text fontSize="sm" color="fg.muted">
          {t('wallets.withdrawal.address')}
        </Text>
        <Text fontFamily="mono" fontSize="lg" title={address ?? undefined} data-testid="withdrawal-address">
          {shortenAddress(address)}
        </Text>
        {!address && (
          <Alert.Root status="info" mt="2" size="sm">
            <Alert.Indicator />
            <Alert.Title>{t('wallets.withdrawal.saveAddress')}</Alert.Title>
          </Alert.Root>
        )}
      </Box>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (!disabled) void requestFees();
        }}
      >
        <Stack gap="4">
          <TextField
            label={t('wallets.withdrawal.amount')}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="0.00"
            value={amount}
            helper={
              wallets
                ? t('wallets.withdrawal.helper', {
                    amount: f.money(available),
                    min: f.number(MIN_WITHDRAWAL),
                  })
                : t('wallets.withdrawal.helperUnknown', { min: f.number(MIN_WITHDRAWAL) })
            }
            onChange={(event) => setAmount(event.target.value)}
          />
          <Button type="submit" colorPalette="teal" alignSelf="start" disabled={disabled} loading={busy}>
            {t('wallets.withdrawal.submit')}
          </Button>
        </Stack>
      </form>
      <WithdrawalFeeDialog
        quote={step === 'fee' ? quote : null}
        address={address}
        onCancel={close}
        onConfirm={() => setStep('password')}
      />
      <PasswordPromptDialog
        open={step === 'password'}
        title={t('wallets.withdrawal.promptTitle')}
        confirmLabel={t('wallets.withdrawal.promptConfirm')}
        onClose={close}
        onConfirm={submit}
      >
        {quote && (
          <SummaryList
            rows={[
              [t('wallets.withdrawal.youReceive'), f.money(quote.finalAmount)],
              [t('wallets.withdrawal.toAddress'), <DestinationAddress address={address} />],
            ]}
          />
        )}
      </PasswordPromptDialog>
    </Stack>
  );
}
