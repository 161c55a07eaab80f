/** One wallet's Available and lifetime Total, and the Total Earnings card (spec §2 Wallets). */
import { Card, HStack, Icon, Stat, Text } from '@chakra-ui/react';
import { LuTrendingUp, LuWallet } from 'react-icons/lu';
import { formatMoney } from '@md/shared';

export function WalletCard({ name, available, total }: { name: string; available: number; total: number }) {
  return (
    <Card.Root size="sm" variant="outline" data-testid={`wallet-card-${name}`}>
      <Card.Body>
        <Stat.Root>
          <HStack justify="space-between">
            <Stat.Label>{name} Wallet</Stat.Label>
            <Icon color="teal.fg">
              <LuWallet />
            </Icon>
          </HStack>
          <Stat.ValueText fontSize={{ base: 'lg', sm: '2xl' }} data-testid={`wallet-available-${name}`}>
            {formatMoney(available)}
          </Stat.ValueText>
          <Stat.HelpText>Available</Stat.HelpText>
          <Text fontSize="sm" color="fg.muted">
            Total: <Text as="span" fontWeight="semibold" color="fg" data-testid={`wallet-total-${name}`}>{formatMoney(total)}</Text>
          </Text>
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}

export function TotalEarningsCard({ total }: { total: number }) {
  return (
    <Card.Root size="sm" variant="subtle" colorPalette="teal" bg="teal.subtle" data-testid="wallet-card-Total-Earnings">
      <Card.Body>
        <Stat.Root>
          <HStack justify="space-between">
            <Stat.Label>Total Earnings</Stat.Label>
            <Icon color="teal.fg">
              <LuTrendingUp />
            </Icon>
          </HStack>
          <Stat.ValueText fontSize={{ base: 'lg', sm: '2xl' }} data-testid="total-earnings">
            {formatMoney(total)}
          </Stat.ValueText>
          <Stat.HelpText>Binary + Direct + Upline Bonus + Level</Stat.HelpText>
        </Stat.Root>
      </Card.Body>
    </Card.Root>
  );
}
