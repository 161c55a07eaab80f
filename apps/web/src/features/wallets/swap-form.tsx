/**
 * Wallet Swap (spec §5 Swap): from and to wallets, an amount (step 0.01, parsed as a float, above 0
 * and not above the source balance), MAX, and Quick transfer of every reward wallet to Withdrawal,
 * confirmed first in a panel that lists what will move. Swap and Quick transfer each send once
 * however they are clicked: a synchronous guard (useSingleFlight) held while the call is in flight;
 * a swap's for at least SWAP_SUBMIT_GUARD_MS (spec: the swap submit guard waits 10,000 ms).
 */
import { useState } from 'react';
import { Box, Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import {
  MSG,
  REWARD_WALLETS,
  SWAP_STEP,
  SWAP_SUBMIT_GUARD_MS,
  swapAmountField,
  type WalletName,
} from '@md/shared';
import { SelectField } from '@/components/form/select-field.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { availableOf, isWalletName, useRefreshWallets, type Wallets } from '@/lib/wallets.ts';
import {
  QuickTransferDialog,
  WithdrawalSwapDialog,
  type QuickTransferLeg,
  type WithdrawalSwap,
} from './quick-transfer-dialog.tsx';
import { useSwapWallets, walletOptions } from './use-swap-wallets.ts';
import { walletName } from '@/lib/wallet-text.ts';

export function SwapForm({ wallets }: { wallets: Wallets | undefined }) {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const label = (name: string) => walletName(t, name);
  const client = useTRPCClient();
  const refreshWallets = useRefreshWallets();
  const { from: fromFlags, to: toFlags } = useSwapWallets();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<{ from?: string; to?: string; amount?: string }>({});
  // One swap and one quick transfer at a time, however fast the clicks come.
  const swapping = useSingleFlight(SWAP_SUBMIT_GUARD_MS);
  const quickMoving = useSingleFlight();
  const moveMoney = useMoneyMove();
  // The quick transfer being confirmed: fixed when the panel opens, sent as shown.
  const [quickLegs, setQuickLegs] = useState<readonly QuickTransferLeg[] | null>(null);
  // A swap into the Withdrawal wallet being confirmed (one-way, as Quick transfer).
  const [withdrawalSwap, setWithdrawalSwap] = useState<WithdrawalSwap | null>(null);

  const fromBalance = from ? availableOf(wallets, from) : 0;
  // A figure that cannot be read is spent as 0 (nothing to swap) and shown as '-'.
  const spendable = fromBalance ?? 0;

  const send = async (fromWallet: WalletName, toWallet: WalletName, value: number) => {
    await swapping.run(async () => {
      const outcome = await moveMoney({
        action: t('wallets.action.swap'),
        wallet: fromWallet,
        send: (options) =>
          client['wallet.transfer_wallet'].mutate(
            { amount: value, from_wallet: fromWallet, to_wallet: toWallet },
            options,
          ),
        success: (answer) => messageText(textOf(recordOf(answer)?.Success) || t('wallets.swap.completed')),
        failure: (error) => messageText(errorMessage(error, MSG.walletTransferFailed)),
      });
      if (outcome.status === 'done') setAmount('');
      setWithdrawalSwap(null);
      void refreshWallets();
    });
  };

  const swap = async () => {
    const next: typeof errors = {};
    if (!isWalletName(from)) next.from = t('wallets.swap.selectWallet');
    if (!isWalletName(to)) next.to = t('wallets.swap.selectWallet');
    else if (to === from) next.to = t('wallets.swap.differentWallet');
    const parsed = swapAmountField(spendable).safeParse(amount);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]?.message;
      next.amount = issue && messageText(issue);
    }
    setErrors(next);
    if (Object.keys(next).length > 0 || !isWalletName(from) || !isWalletName(to)) return;
    if (to === 'Withdrawal') {
      setWithdrawalSwap({ from, amount: parseFloat(amount) });
      return;
    }
    await send(from, to, parseFloat(amount));
  };

  /** Opens the confirmation with every non-zero reward wallet as it stands now. */
  const reviewQuickTransfer = () => {
    const legs = REWARD_WALLETS.map((name) => ({
      wallet: name,
      amount: availableOf(wallets, name) ?? 0,
    })).filter((leg) => leg.amount > 0);
    if (legs.length === 0) {
      notify.info(t('wallets.swap.noRewardBalance'));
      return;
    }
    setQuickLegs(legs);
  };

  // One transfer per confirmed wallet, in order, so each is its own ledger entry (and its own key).
  const quickTransfer = (legs: readonly QuickTransferLeg[]) =>
    quickMoving.run(async () => {
      let moved = 0;
      for (const leg of legs) {
        const outcome = await moveMoney({
          action: t('wallets.action.quickTransfer', { wallet: walletName(t, leg.wallet) }),
          wallet: leg.wallet,
          send: (options) =>
            client['wallet.transfer_wallet'].mutate(
              { amount: leg.amount, from_wallet: leg.wallet, to_wallet: 'Withdrawal' },
              options,
            ),
          // One message for the whole transfer once every leg went through.
          success: () => null,
          failure: (error) => messageText(errorMessage(error, MSG.walletTransferFailed)),
        });
        if (outcome.status !== 'done') break;
        moved += 1;
      }
      if (moved === legs.length) notify.success(t('wallets.swap.moved', { count: moved }));
      setQuickLegs(null);
      void refreshWallets();
    });

  return (
    <>
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
              label={t('wallets.swap.from')}
              placeholder={t('wallets.swap.placeholder')}
              options={walletOptions(fromFlags, false, label)}
              value={from}
              error={errors.from}
              onChange={(event) => {
                setFrom(event.target.value);
                setErrors((e) => ({ ...e, from: undefined, amount: undefined }));
              }}
            />
            <SelectField
              label={t('wallets.swap.to')}
              placeholder={t('wallets.swap.placeholder')}
              options={walletOptions(toFlags, true, label)}
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
                label={t('wallets.swap.amount')}
                type="number"
                inputMode="decimal"
                min={0}
                step={SWAP_STEP}
                placeholder="0.00"
                value={amount}
                error={errors.amount}
                helper={
                  !from
                    ? undefined
                    : wallets
                      ? t('wallets.swap.available', { amount: f.money(fromBalance) })
                      : t('wallets.swap.availableUnknown')
                }
                onChange={(event) => {
                  setAmount(event.target.value);
                  setErrors((e) => ({ ...e, amount: undefined }));
                }}
              />
            </Box>
            <Button mt="6" variant="outline" disabled={!from} onClick={() => setAmount(String(spendable))}>
              {t('wallets.swap.max')}
            </Button>
          </HStack>
          <HStack gap="3" flexWrap="wrap">
            <Button type="submit" colorPalette="teal" disabled={swapping.pending} loading={swapping.sending}>
              {t('wallets.swap.submit')}
            </Button>
            {/* Waits for the balances: clicked before they arrive, it would say there is nothing to move. */}
            <Button
              variant="outline"
              colorPalette="teal"
              loading={quickMoving.pending}
              disabled={!wallets}
              onClick={reviewQuickTransfer}
            >
              {t('wallets.swap.quickTransfer')}
            </Button>
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {t('wallets.swap.quickTransferHelp')}
          </Text>
        </Stack>
      </form>
      {/* Outside the form: a portal's submit still bubbles through React's tree to the form above. */}
      <WithdrawalSwapDialog
        swap={withdrawalSwap}
        busy={swapping.pending}
        onCancel={() => setWithdrawalSwap(null)}
        onConfirm={() =>
          void (withdrawalSwap && send(withdrawalSwap.from, 'Withdrawal', withdrawalSwap.amount))
        }
      />
      <QuickTransferDialog
        legs={quickLegs}
        busy={quickMoving.pending}
        onCancel={() => setQuickLegs(null)}
        onConfirm={() => void (quickLegs && quickTransfer(quickLegs))}
      />
    </>
  );
}
