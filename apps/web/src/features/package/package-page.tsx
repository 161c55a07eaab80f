/**
 * Package (/dashboard/package): pick a package card, 'Select {name}', confirm in the panel, buy
 * from the Deposit wallet. States (spec §4): no selection → selected → confirm open → processing.
 * Confirm Purchase sends once however it is clicked (a synchronous guard; the server also answers a
 * repeat with the first purchase). Once a card is picked, the action bar sticks to the bottom of
 * the screen, so on a phone the next step is in view.
 */
import { useState } from 'react';
import { Box, Button, Flex, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { MSG } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { Unavailable } from '@/components/unavailable.tsx';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { useFormat, useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useMoneyMove } from '@/lib/use-money-move.ts';
import { useSingleFlight } from '@/lib/use-single-flight.ts';
import { useRefreshWallets } from '@/lib/wallets.ts';
import { ActivePackages } from './active-packages.tsx';
import { ConfirmPurchaseDialog } from './confirm-purchase-dialog.tsx';
import { InvestmentDetails } from './investment-details.tsx';
import { PackageCard, type Package } from './package-card.tsx';
import { useActivePlans } from './use-active-plans.ts';
import { usePackages } from './use-packages.ts';

export default function PackagePage() {
  const { user, profile, refreshProfile } = useAuth();
  const client = useTRPCClient();
  const refreshWallets = useRefreshWallets();
  const packages = usePackages();
  const active = useActivePlans(profile?.package);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const purchase = useSingleFlight();
  const moveMoney = useMoneyMove();
  const item = navItemByPath('/dashboard/package')!;
  const t = useT();
  const f = useFormat();
  const messageText = useMessageText();

  const buy = (plan: string) =>
    purchase.run(async () => {
      const outcome = await moveMoney({
        action: t('packages.page.action'),
        wallet: 'Deposit',
        send: (options) => client['subscription.buy_subscription_packages'].mutate({ plan }, options),
        success: (answer) => messageText(textOf(recordOf(answer)?.Success)) || t('packages.page.purchased'),
        failure: (error) => messageText(errorMessage(error, MSG.failedPurchase)),
      });
      if (outcome.status === 'refused') return;
      // Done, or unknown (it may have happened): the figures are asked for again either way.
      if (outcome.status === 'done') {
        setSelected(null);
        setConfirmOpen(false);
      }
      // The header balance, the wallets and the 'Current' badges all follow the purchase.
      void refreshWallets();
      void refreshProfile();
      void active.refresh();
    });

  // The page renders nothing without a user (spec §2).
  if (!user) return null;
  // Only packages with a name can be shown and bought.
  const list = listOf<Package>(recordOf(packages.data)?.Success).filter(
    (pkg) => typeof pkg.Name === 'string' && pkg.Name !== '',
  );
  const selectedPackage = list.find((pkg) => pkg.Name === selected) ?? null;

  return (
    <Stack gap="6">
      <PageHeader route={item} />
      <ActivePackages
        subscriptions={active.subscriptions}
        profilePackage={profile?.package}
        failed={active.failed}
        retrying={active.retrying}
        onRetry={() => void active.refresh()}
      />
      {/* A failed or unreadable list (spec §8 toasts the failure) is Unavailable with a Retry, not 'No data'. */}
      {packages.isError ||
      (packages.data !== undefined && !Array.isArray(recordOf(packages.data)?.Success)) ? (
        <Unavailable
          what={t('packages.page.packages')}
          onRetry={() => void packages.refetch()}
          retrying={packages.isFetching}
        />
      ) : packages.isPending ? (
        <Spinner color="teal.solid" role="status" aria-label={messageText(MSG.loading)} />
      ) : list.length === 0 ? (
        <Text color="fg.muted">{messageText(MSG.noData)}</Text>
      ) : (
        <Stack gap="3">
          <Text color="fg.muted" fontSize="sm" data-testid="package-hint">
            {selectedPackage
              ? t('packages.page.selectedHint', { name: selectedPackage.Name })
              : t('packages.page.tapHint')}
          </Text>
          <SimpleGrid
            columns={{ base: 1, sm: 2, xl: 4 }}
            gap="4"
            role="group"
            aria-label={t('packages.page.packages')}
          >
            {list.map((pkg) => (
              <PackageCard
                key={pkg.Name}
                pkg={pkg}
                current={active.plans.has(pkg.Name)}
                selected={selected === pkg.Name}
                onSelect={() => setSelected(pkg.Name)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      )}
      {selectedPackage && (
        // Sticky to the bottom of the screen while the cards scroll, at every width: the next step
        // stays in view (at 1280×900 the grid alone pushes it below the fold).
        <Box
          position="sticky"
          bottom="0"
          zIndex="docked"
          mx={{ base: '-4', md: '0' }}
          px="4"
          py="3"
          bg="bg.subtle"
          borderTopWidth="1px"
          borderWidth={{ md: '1px' }}
          borderRadius={{ md: 'l2' }}
          shadow={{ md: 'md' }}
          data-testid="package-action-bar"
        >
          {/* On a phone the button sits at the start: the QA button (mock mode) floats at the end corner. */}
          <Flex
            gap={{ base: '2', md: '4' }}
            direction={{ base: 'column', md: 'row' }}
            align={{ base: 'flex-start', md: 'center' }}
          >
            <Text fontSize="sm" fontWeight="medium">
              {t('packages.page.selection', {
                name: selectedPackage.Name,
                price: f.money(selectedPackage.Price),
              })}
            </Text>
            <Button colorPalette="teal" size="lg" onClick={() => setConfirmOpen(true)}>
              {t('packages.page.select', { name: selectedPackage.Name })}
            </Button>
          </Flex>
        </Box>
      )}
      <InvestmentDetails />
      <ConfirmPurchaseDialog
        pkg={selectedPackage}
        open={confirmOpen}
        processing={purchase.pending}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => void (selectedPackage && buy(selectedPackage.Name))}
      />
    </Stack>
  );
}
