/**
 * Wallet Swap (spec §5 Swap): from and to wallets, an amount (step 0.01, parsed as a float, above 0
 * and not above the source balance), MAX, and Quick transfer of every reward wallet to Withdrawal.
 */
import { useEffect, useRef, useState } from 'react';
import { Box, Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { MSG, REWARD_WALLETS, SWAP_STEP, SWAP_SUBMIT_GUARD_MS, formatMoney, swapAmountField } from '@md/shared';
import { SelectField } from '@/components/form/select-field.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { availableOf, isWalletName, useRefreshWallets, type Wallets } from '@/lib/wallets.ts';
import { useSwapWallets, walletOptions } from './use-swap-wallets.ts';

const SELECT_WALLET = 'Select a wallet';

export function SwapForm({ wallets }: { wallets: Wallets | undefined }) {
  const client = useTRPCClient();
  const refreshWallets = useRefreshWallets();
  const { from: fromFlags, to: toFlags } = useSwapWallets();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ from?: string; to?: string; amount?: string }>({});
  // The submit guard: disabled while a swap is in flight, released after 10 s at most.
  const [guarded, setGuarded] = useState(false);
  const guardTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [quickBusy, setQuickBusy] = useState(false);
  useEffect(() => () => clearTimeout(guardTimer.current), []);

  const fromBalance = from ? availableOf(wallets, from) : 0;

  const swap = async () => {
    const next: typeof errors = {};
    if (!isWalletName(from)) next.from = SELECT_WALLET;
    if (!isWalletName(to)) next.to = SELECT_WALLET;
    else if (to === from) next.to = 'Choose a different wallet';
    const parsed = swapAmountField(fromBalance).safeParse(amount);
    if (!parsed.success) next.amount = parsed.error.issues[0]?.message;
    setErrors(next);
    if (Object.keys(next).length > 0 || !isWalletName(from) || !isWalletName(to)) return;

    setGuarded(true);
    guardTimer.current = setTimeout(() => setGuarded(false), SWAP_SUBMIT_GUARD_MS);
    try {
      const response = await client['wallet.transfer_wallet'].mutate({ amount: parseFloat(amount), from_wallet: from, to_wallet: to });
      notify.success(textOf(recordOf(response)?.Success) || 'Swap completed');
      setAmount('');
      void refreshWallets();
    } catch (error) {
      notify.error(errorMessage(error, MSG.walletTransferFailed));
    } finally {
      clearTimeout(guardTimer.current);
      setGuarded(false);
    }
  };

  // One transfer per non-zero reward wallet, in order, so each is its own ledger entry.
  const quickTransfer = async () => {
    const sources = REWARD_WALLETS.filter((name) => availableOf(wallets, name) > 0);
    if (sources.length === 0) {
      notify.info('No reward balance to transfer');
      return;
    }
    setQuickBusy(true);
    let moved = 0;
    try {
      for (const name of sources) {
        await client['wallet.transfer_wallet'].mutate({ amount: availableOf(wallets, name), from_wallet: name, to_wallet: 'Withdrawal' });
        moved += 1;
      }
      notify.success(`Moved ${moved} reward wallet${moved === 1 ? '' : 's'} to Withdrawal`);
    } catch (error) {
      notify.error(errorMessage(error, MSG.walletTransferFailed));
    } finally {
      setQuickBusy(false);
      void refreshWallets();
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void swap();
      }}
    >
      <Stack gap="4" maxW="2xl">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <SelectField
            label="From wallet"
            placeholder="Select wallet"
            options={walletOptions(fromFlags, false)}
            value={from}
            error={errors.from}
            onChange={(event) => {
              setFrom(event.target.value);
              setErrors((e) => ({ ...e, from: undefined, amount: undefined }));
            }}
          />
          <SelectField
            label="To wallet"
            placeholder="Select wallet"
            options={walletOptions(toFlags, true)}
            value={to}
            error={errors.to}
            onChange={(event) => {
              setTo(event.target.value);
              setErrors((e) => ({ ...e, to: undefined }));
            }}
          />
        </SimpleGrid>
        <HStack align="flex-start" gap="2">
          <Box flex="1">
            <TextField
              label="Amount"
              type="number"
              inputMode="decimal"
              min={0}
              step={SWAP_STEP}
              placeholder="0.00"
              value={amount}
              error={errors.amount}
              helper={from ? `Available: ${formatMoney(fromBalance)}` : undefined}
              onChange={(event) => {
                setAmount(event.target.value);
                setErrors((e) => ({ ...e, amount: undefined }));
              }}
            />
          </Box>
          <Button mt="6" variant="outline" disabled={!from} onClick={() => setAmount(String(fromBalance))}>
            MAX
          </Button>
        </HStack>
        <HStack gap="3" flexWrap="wrap">
          <Button type="submit" colorPalette="teal" disabled={guarded} loading={guarded}>
            Swap
          </Button>
          <Button variant="outline" colorPalette="teal" loading={quickBusy} onClick={() => void quickTransfer()}>
            Quick transfer
          </Button>
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          Quick transfer moves every reward wallet (Direct, Binary, Level, ROI, Rank) to the Withdrawal wallet.
        </Text>
      </Stack>
    </form>
  );
}
