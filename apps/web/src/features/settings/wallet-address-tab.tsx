/** Settings → Wallet Address: the saved address; updating it arrives with the withdrawal release. */
import { Text } from '@chakra-ui/react';
import { NETWORK, shortenAddress, type Profile } from '@md/shared';
import { SectionCard } from '@/components/section-card.tsx';

export function WalletAddressTab({ profile }: { profile: Profile }) {
  const address = profile.Wallet_Details?.Wallet_Address;
  return (
    <SectionCard title="Wallet Address" description={`Your ${NETWORK} withdrawal address`}>
      <Text fontFamily="mono" fontSize="lg" title={address ?? undefined} data-testid="wallet-address">
        {shortenAddress(address)}
      </Text>
      <Text color="fg.muted" mt="3" fontSize="sm">
        Updating the wallet address comes in a later release.
      </Text>
    </SectionCard>
  );
}
