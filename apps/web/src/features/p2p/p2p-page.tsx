/**
 * P2P transfer (/dashboard/p2pTransfer): verify a downline recipient, enter an amount from the
 * Deposit wallet (fee 0), confirm with the transaction password (spec §4, §5 P2P). The transfer is
 * sent once however Confirm Transfer is clicked (a synchronous guard, useSingleFlight); when the
 * wallets cannot be read the balance says "Unavailable" with a retry, not $0.00.
 */
import { useState } from 'react';
import { Box, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuBadgeCheck } from 'react-icons/lu';
import { MSG, P2P_FEE, P2P_STEP, p2pAmountField } from '@md/shared';
import { AsOf } from '@/components/as-of.tsx';
import { PasswordPromptDialog } from '@/components/form/password-prompt-dialog.tsx';
import { SummaryList } from '@/components/form/summary-list.tsx';
import { TextField } from '@/components/form/text-field.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { Unavailable } from '@/components/unavailable.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { availableOf, useRefreshWallets, useWallets } from '@/lib/wallets.ts';
import { useRecipient } from './use-recipient.ts';

export default function P2PPage() {
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();
  const client = useTRPCClient();
  const { wallets, state, refetch, isFetching, isRefetchError, dataUpdatedAt } = useWallets();
  const sending = useSingleFlight();
  const moveMoney = useMoneyMove();
  const refreshWallets = useRefreshWallets();
  const recipient = useRecipient();
  const [amount, setAmount] = useState('');
  const [amountError, setAmountError] = useState<string>();
  const [prompting, setPrompting] = useState(false);
  const balance = availableOf(wallets, 'Deposit');

  const openPrompt = () => {
    if (!recipient.verified) return;
    const parsed = p2pAmountField(balance ?? 0).safeParse(amount);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]?.message;
      return setAmountError(issue && messageText(issue));
    }
    setPrompting(true);
  };

  const transfer = (password: string) =>
    sending.run(async () => {
      const outcome = await moveMoney({
        action: t('p2p.action.transfer'),
        wallet: 'Deposit',
        send: (options) =>
          client.transfer_to_user.mutate(
            { username: recipient.username.trim(), amount: parseFloat(amount), password },
            options,
          ),
        success: () => messageText(MSG.transferSuccessful),
        // The server's Error, else 'Transfer failed'; no answer at all is 'Unexpected error during transfer'.
        failure: (error) => messageText(errorMessage(error, MSG.transferFailed, MSG.unexpectedTransferError)),
      });
      if (outcome.status === 'done') setAmount('');
      if (outcome.status !== 'refused') setPrompting(false);
      void refreshWallets();
    });

  const available =
    state === 'ready' ? (
      f.money(balance)
    ) : state === 'loading' ? (
      <Skeleton
        as="span"
        display="inline-block"
        height="1em"
        width="4rem"
        role="status"
        aria-label={t('p2p.loadingBalance')}
      />
    ) : (
      <Unavailable what={t('p2p.depositBalanceWhat')} retrying={isFetching} onRetry={() => void refetch()} />
    );

  return (
    <Stack gap="6">
      <PageHeader heading={t('p2p.heading')} description={t('p2p.description')} />
      <SectionCard title={t('p2p.sendFunds')}>
        {/* Not the card's description: that is a <p>, and "Unavailable" brings a button. */}
        <HStack gap="1" mb="4" flexWrap="wrap" color="fg.muted" fontSize="sm" data-testid="p2p-available">
          <Text as="span">{t('p2p.fromDeposit')}</Text> {available}
          {/* The latest refresh failed: the balance is from then, and says so. */}
          {state === 'ready' && isRefetchError && <AsOf updatedAt={dataUpdatedAt} />}
        </HStack>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            openPrompt();
          }}
        >
          <Stack gap="4" maxW="lg">
            <HStack align="flex-start" gap="2">
              <Box flex="1">
                <TextField
                  label={t('p2p.recipientUsername')}
                  autoComplete="off"
                  autoCapitalize="none"
                  value={recipient.username}
                  helper={
                    recipient.verified ? (
                      <HStack as="span" color="green.fg" gap="1">
                        <LuBadgeCheck /> {t('p2p.verified')}
                      </HStack>
                    ) : undefined
                  }
                  onChange={(event) => recipient.setUsername(event.target.value)}
                />
              </Box>
              <Button
                mt="6"
                variant="outline"
                colorPalette="teal"
                loading={recipient.verifying}
                onClick={() => void recipient.verify()}
              >
                {t('p2p.verify')}
              </Button>
            </HStack>
            <TextField
              label={t('p2p.amount')}
              type="number"
              inputMode="decimal"
              min={P2P_STEP}
              step={P2P_STEP}
              placeholder="0.0"
              disabled={!recipient.verified}
              value={amount}
              error={amountError}
              onChange={(event) => {
                setAmount(event.target.value);
                setAmountError(undefined);
              }}
            />
            <SummaryList
              rows={[
                [t('p2p.fee'), f.money(P2P_FEE)],
                [t('p2p.recipientGets'), f.money(parseFloat(amount) || 0)],
              ]}
            />
            <Button type="submit" colorPalette="teal" alignSelf="start" disabled={!recipient.verified}>
              {t('p2p.submit')}
            </Button>
          </Stack>
        </form>
      </SectionCard>
      <PasswordPromptDialog
        open={prompting}
        title={t('p2p.promptTitle')}
        confirmLabel={t('p2p.promptConfirm')}
        onClose={() => setPrompting(false)}
        onEmpty={() => {
          setPrompting(false);
          notify.info(messageText(MSG.transferCancelled));
        }}
        onConfirm={transfer}
      >
        <SummaryList
          rows={[
            [t('p2p.recipient'), recipient.username],
            [t('p2p.amount'), f.money(parseFloat(amount) || 0)],
            [t('p2p.fee'), f.money(P2P_FEE)],
          ]}
        />
      </PasswordPromptDialog>
    </Stack>
  );
}
