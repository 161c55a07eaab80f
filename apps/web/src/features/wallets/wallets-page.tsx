/**
 * Wallets (/dashboard/wallets): 8 wallet cards, Total Earnings, then Wallet Swap and Withdrawal
 * Request, then monthly Statements. Skeletons while the wallets load; when they cannot be read, "Unavailable" and a retry
 * instead of eight $0.00 (the call fails silently, spec §8). When a refresh fails while balances
 * are on screen (the server restarting), they stay, muted and marked "as of" the time they were
 * read, with a Retry: never shown as current.
 */
import { Button, Card, HStack, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { LuArrowLeftRight } from 'react-icons/lu';
import { WALLET_NAMES } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { RetryButton, Unavailable } from '@/components/unavailable.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import { availableOf, totalEarnings, totalOf, useWallets } from '@/lib/wallets.ts';
import { StatementSection } from './statement-section.tsx';
import { SwapForm } from './swap-form.tsx';
import { TotalEarningsCard, WalletCard } from './wallet-card.tsx';
import { tabOf } from './wallets-tabs.ts';
import { WithdrawalForm } from './withdrawal-form.tsx';

/** When balances on screen were read: the time, with the day in front when it was not today (the member's zone, named). */
const readAt = (f: ReturnType<typeof useFormat>, at: number) =>
  new Date(at).toDateString() === new Date().toDateString() ? f.time(at) : f.dateTime(at);

export default function WalletsPage() {
  const t = useT();
  const f = useFormat();
  const { wallets, state, refetch, isFetching, isRefetchError, dataUpdatedAt } = useWallets();
  const ready = state === 'ready';
  // The balances shown are from before a refresh that failed: when they were read.
  const asOf = ready && isRefetchError ? dataUpdatedAt : undefined;
  const item = navItemByPath('/dashboard/wallets')!;
  // The Withdraw menu entry opens this page at its Withdrawal Request tab (?tab=withdrawal).
  const [params] = useSearchParams();
  const tab = tabOf(params.get('tab'));
  return (
    <Stack gap="6">
      <HStack justify="space-between" align="flex-start" flexWrap="wrap" gap="3">
        <PageHeader route={item} />
        {/* The spec does not show P2P in the sidebar: reach it from here. */}
        <Button asChild variant="outline" colorPalette="teal">
          <RouterLink to="/dashboard/p2pTransfer">
            <LuArrowLeftRight />
            {t('nav.p2pTransfer.name')}
          </RouterLink>
        </Button>
      </HStack>
      {state === 'unavailable' ? (
        <Card.Root variant="outline" role="status" data-testid="wallets-unavailable">
          <Card.Body gap="2">
            <Text fontWeight="medium">{t('wallets.page.balances')}</Text>
            <Unavailable
              what={t('wallets.page.balancesWhat')}
              retrying={isFetching}
              onRetry={() => void refetch()}
            />
          </Card.Body>
        </Card.Root>
      ) : (
        <Stack gap="3">
          {asOf !== undefined && (
            <HStack role="status" gap="3" wrap="wrap" data-testid="wallets-not-current">
              <Text textStyle="sm" color="fg.muted">
                {t('wallets.page.notCurrent', { time: readAt(f, asOf) })}
              </Text>
              <RetryButton
                what={t('wallets.page.balances')}
                retrying={isFetching}
                onRetry={() => void refetch()}
              />
            </HStack>
          )}
          <SimpleGrid columns={{ base: 2, lg: 3, xl: 4 }} gap={{ base: '3', md: '4' }} aria-busy={!ready}>
            {WALLET_NAMES.map((name) => (
              <WalletCard
                key={name}
                name={name}
                available={ready ? availableOf(wallets, name) : null}
                total={ready ? totalOf(wallets, name) : null}
                asOf={asOf}
              />
            ))}
            <TotalEarningsCard total={ready ? totalEarnings(wallets) : null} asOf={asOf} />
          </SimpleGrid>
        </Stack>
      )}
      <SectionCard title={t('wallets.page.moveFunds')}>
        <Tabs.Root key={tab} defaultValue={tab} variant="line" colorPalette="teal" lazyMount unmountOnExit>
          <Tabs.List flexWrap="wrap" mb="4">
            <Tabs.Trigger value="swap">{t('wallets.tabs.swap')}</Tabs.Trigger>
            <Tabs.Trigger value="withdrawal">{t('wallets.tabs.withdrawal')}</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="swap">
            <SwapForm wallets={wallets} />
          </Tabs.Content>
          <Tabs.Content value="withdrawal">
            <WithdrawalForm wallets={wallets} />
          </Tabs.Content>
        </Tabs.Root>
      </SectionCard>
      <StatementSection />
    </Stack>
  );
}
