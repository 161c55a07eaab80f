/**
 * Package (/dashboard/package): pick a package card, 'Select {name}', confirm in the panel, buy
 * from the Deposit wallet. States (spec §4): no selection → selected → confirm open → processing.
 */
import { useState } from 'react';
import { Box, Button, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useMutation } from '@tanstack/react-query';
import { MSG } from '@md/shared';
import { PageHeader } from '@/components/page-header.tsx';
import { navItemByPath } from '@/components/shell/nav-items.ts';
import { useAuth } from '@/lib/auth.tsx';
import { errorMessage } from '@/lib/errors.ts';
import { listOf, recordOf, textOf } from '@/lib/guards.ts';
import { notify } from '@/lib/toaster.ts';
import { useTRPCClient } from '@/lib/trpc.ts';
import { useRefreshWallets } from '@/lib/wallets.ts';
import { ConfirmPurchaseDialog } from './confirm-purchase-dialog.tsx';
import { InvestmentDetails } from './investment-details.tsx';
import { PackageCard, type Package } from './package-card.tsx';
import { usePackages } from './use-packages.ts';

export default function PackagePage() {
  const { user, profile, refreshProfile } = useAuth();
  const client = useTRPCClient();
  const refreshWallets = useRefreshWallets();
  const packages = usePackages();
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const item = navItemByPath('/dashboard/package')!;

  const purchase = useMutation({
    mutationFn: (plan: string) => client['subscription.buy_subscription_packages'].mutate({ plan }),
    onSuccess: (response) => {
      notify.success(textOf(recordOf(response)?.Success) || 'Package purchased');
      setSelected(null);
      setConfirmOpen(false);
      // The header balance, the wallets and the 'Current' badge all follow the purchase.
      void refreshWallets();
      void refreshProfile();
    },
    onError: (error) => notify.error(errorMessage(error, MSG.failedPurchase)),
  });

  // The page renders nothing without a user (spec §2).
  if (!user) return null;
  // Only packages with a name can be shown and bought.
  const list = listOf<Package>(recordOf(packages.data)?.Success).filter((pkg) => typeof pkg.Name === 'string' && pkg.Name !== '');
  const selectedPackage = list.find((pkg) => pkg.Name === selected) ?? null;

  return (
    <Stack gap="6">
      <PageHeader heading={item.heading} description={item.description} />
      {packages.isPending ? (
        <Spinner color="teal.solid" aria-label={MSG.loading} />
      ) : list.length === 0 ? (
        <Text color="fg.muted">{MSG.noData}</Text>
      ) : (
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="4" role="group" aria-label="Packages">
          {list.map((pkg) => (
            <PackageCard
              key={pkg.Name}
              pkg={pkg}
              current={profile?.package === pkg.Name}
              selected={selected === pkg.Name}
              onSelect={() => setSelected(pkg.Name)}
            />
          ))}
        </SimpleGrid>
      )}
      {selectedPackage && (
        <Box>
          <Button colorPalette="teal" size="lg" onClick={() => setConfirmOpen(true)}>
            Select {selectedPackage.Name}
          </Button>
        </Box>
      )}
      <InvestmentDetails />
      <ConfirmPurchaseDialog
        pkg={selectedPackage}
        open={confirmOpen}
        processing={purchase.isPending}
        onCancel={() => setConfirmOpen(false)}
        onConfirm={() => selectedPackage && purchase.mutate(selectedPackage.Name)}
      />
    </Stack>
  );
}
