/**
 * Withdrawal Request (spec §4, §5): the amount, checked (minimum 20, a transaction password set),
 * then the server's fee in a confirmation dialog, then the transaction password. The request is sent
 * once however Submit Withdrawal is clicked (a synchronous guard, useSingleFlight).
 */
import { useState } from 'react';
import { Alert, Box, Button, Stack, Text } from '@chakra-ui/react';
import { MSG, formatMoney, shortenAddress, truncate2, withdrawalAmountField } from '@md/shared';
import { PasswordPromptDialog } from '@/components/form/password-prompt-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { availableOf, useRefreshWallets, type Wallets } from '@/lib/wallets.ts';
import { DestinationAddress, WithdrawalFeeDialog, type WithdrawalQuote } from './withdrawal-fee-dialog.tsx';

export function WithdrawalForm({ wallets }: { wallets: Wallets | undefined }) {
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
    if (!parsed.success) return notify.error(MSG.withdrawalMin);
    if (!profile?.Transaction_Password) return notify.error(MSG.setTransactionPassword);
    setBusy(true);
    try {
      const response: unknown = await client['withdraw.withdraw_fees'].query({ amount: value });
      const feePercent = numberOf(recordOf(response)?.Success);
      // Without a fee percentage there is nothing to confirm: the fee could not be calculated.
      if (feePercent === undefined) return notify.error(MSG.failedWithdrawFees);
      const fee = truncate2((value * feePercent) / 100);
      setQuote({ amount: value, feePercent, fee, finalAmount: truncate2(value - fee) });
      setStep('fee');
    } catch (error) {
      notify.error(errorMessage(error, MSG.failedWithdrawFees));
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
        action: 'withdrawal request',
        wallet: 'Withdrawal',
        send: (options) =>
          client['withdraw.withdraw_request'].mutate({ amount: quote.amount, password }, options),
        success: (answer) => textOf(recordOf(answer)?.Success) || 'Withdrawal requested',
        failure: (error) => errorMessage(error, MSG.anErrorOccurred),
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
          Withdrawal address (BEP.20)
        </Text>
        <Text fontFamily="mono" fontSize="lg" title={address ?? undefined} data-testid="withdrawal-address">
          {shortenAddress(address)}
        </Text>
        {!address && (
          <Alert.Root status="info" mt="2" size="sm">
            <Alert.Indicator />
            <Alert.Title>Save a withdrawal address in Settings → Wallet Address first.</Alert.Title>
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
            label="Withdrawal amount"
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="0.00"
            value={amount}
            helper={`Available: ${wallets ? formatMoney(available) : 'unavailable'} · minimum $20`}
            onChange={(event) => setAmount(event.target.value)}
          />
          <Button type="submit" colorPalette="teal" alignSelf="start" disabled={disabled} loading={busy}>
            Withdraw
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
        title="Confirm withdrawal"
        confirmLabel="Submit Withdrawal"
        onClose={close}
        onConfirm={submit}
      >
        {quote && (
          <SummaryList
            rows={[
              ['You receive', formatMoney(quote.finalAmount)],
              ['To address (BEP.20)', <DestinationAddress address={address} />],
            ]}
          />
        )}
      </PasswordPromptDialog>
    </Stack>
  );
}
