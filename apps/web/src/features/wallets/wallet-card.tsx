/**
 * One wallet's Available and lifetime Total, and the Total Earnings card (spec §2 Wallets).
 * Stat.Root is a <dl>: only its dt/dd inside it, the icon beside it.
 */
import { Card, HStack, Icon, Stat, Text } from '@chakra-ui/react';
import { LuTrendingUp, LuWallet } from 'react-icons/lu';
import { formatMoney } from '@md/shared';

export function WalletCard({ name, available, total }: { name: string; available: number; total: number }) {
  return (
    <Card.Root size="sm" variant="outline" data-testid={`wallet-card-${name}`}>
      <Card.Body>
        <HStack justify="space-between" align="start">
          <Stat.Root>
            <Stat.Label>{name} Wallet</Stat.Label>
            <Stat.ValueText fontSize={{ base: 'lg', sm: '2xl' }} data-testid={`wallet-available-${name}`}>
              {formatMoney(available)}
            </Stat.ValueText>
            <Stat.HelpText as="dd">Available</Stat.HelpText>
            <Text as="dd" fontSize="sm" color="fg.muted">
              Total: <Text as="span" fontWeight="semibold" color="fg" data-testid={`wallet-total-${name}`}>{formatMoney(total)}</Text>
            </Text>
          </Stat.Root>
          <Icon color="teal.fg" aria-hidden="true">
            <LuWallet />
          </Icon>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export function TotalEarningsCard({ total }: { total: number }) {
  return (
    <Card.Root size="sm" variant="subtle" colorPalette="teal" bg="teal.subtle" data-testid="wallet-card-Total-Earnings">
      <Card.Body>
        <HStack justify="space-between" align="start">
          <Stat.Root>
            <Stat.Label>Total Earnings</Stat.Label>
            <Stat.ValueText fontSize={{ base: 'lg', sm: '2xl' }} data-testid="total-earnings">
              {formatMoney(total)}
            </Stat.ValueText>
            <Stat.HelpText as="dd">Binary + Direct + Upline Bonus + Level</Stat.HelpText>
          </Stat.Root>
          <Icon color="teal.fg" aria-hidden="true">
            <LuTrendingUp />
          </Icon>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
