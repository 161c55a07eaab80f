/**
 * One wallet's Available and lifetime Total, and the Total Earnings card (spec §2 Wallets).
 * Stat.Root is a <dl>: only its dt/dd inside it, the icon beside it. While the wallets load the
 * figures are skeletons, never a $0.00 that would then jump. Figures whose latest refresh failed
 * are muted and marked "as of HH:mm" (`asOf`: when they were read), never shown as live.
 */
import { Card, HStack, Icon, Skeleton, Stat, Text } from '@chakra-ui/react';
import { LuTrendingUp, LuWallet } from 'react-icons/lu';
import { AsOf } from '@/components/as-of.tsx';
import { useFormat, useT, T } from '@/lib/i18n/i18n.tsx';
import { walletTitle } from '@/lib/wallet-text.ts';

/** A figure, or its skeleton while `value` is null (loading). */
function Figure({ value }: { value: number | null | undefined }) {
  const t = useT();
  const f = useFormat();
  return value === null ? (
    <Skeleton
      as="span"
      display="inline-block"
      height="1em"
      width="5rem"
      role="status"
      aria-label={t('wallets.card.loading')}
    />
  ) : (
    f.money(value)
  );
}

/** The colour of a figure: muted when it is not current. */
const figureColor = (asOf: number | undefined) => (asOf === undefined ? undefined : 'fg.muted');

export function WalletCard({
  name,
  available,
  total,
  asOf,
}: {
  name: string;
  available: number | null | undefined;
  total: number | null | undefined;
  asOf?: number | undefined;
}) {
  const t = useT();
  return (
    <Card.Root size="sm" variant="outline" data-testid={`wallet-card-${name}`}>
      <Card.Body>
        <HStack justify="space-between" align="start">
          <Stat.Root>
            <Stat.Label>{walletTitle(t, name)}</Stat.Label>
            <Stat.ValueText
              fontSize={{ base: 'lg', sm: '2xl' }}
              color={figureColor(asOf)}
              data-testid={`wallet-available-${name}`}
            >
              <Figure value={available} />
            </Stat.ValueText>
            {asOf !== undefined && (
              <dd>
                <AsOf updatedAt={asOf} />
              </dd>
            )}
            <Stat.HelpText as="dd">{t('wallets.card.available')}</Stat.HelpText>
            <Text as="dd" fontSize="sm" color="fg.muted">
              <T
                id="wallets.card.total"
                values={{
                  amount: (
                    <Text
                      as="span"
                      fontWeight="semibold"
                      color={figureColor(asOf) ?? 'fg'}
                      data-testid={`wallet-total-${name}`}
                    >
                      <Figure value={total} />
                    </Text>
                  ),
                }}
              />
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

/**
 * Says what it counts (two cards are titled "Total Earnings", and they count different things): the
 * lifetime Totals of the referral-income wallets, spec §2; ROI and Rank rewards are not in it.
 */
export function TotalEarningsCard({
  total,
  asOf,
}: {
  total: number | null | undefined;
  asOf?: number | undefined;
}) {
  const t = useT();
  return (
    <Card.Root
      size="sm"
      variant="subtle"
      colorPalette="teal"
      bg="teal.subtle"
      data-testid="wallet-card-Total-Earnings"
    >
      <Card.Body>
        <HStack justify="space-between" align="start">
          <Stat.Root>
            <Stat.Label>{t('wallets.card.totalEarnings')}</Stat.Label>
            <Stat.ValueText
              fontSize={{ base: 'lg', sm: '2xl' }}
              color={figureColor(asOf)}
              data-testid="total-earnings"
            >
              <Figure value={total} />
            </Stat.ValueText>
            {asOf !== undefined && (
              <dd>
                <AsOf updatedAt={asOf} />
              </dd>
            )}
            <Stat.HelpText as="dd">{t('wallets.card.totalEarningsHelp')}</Stat.HelpText>
          </Stat.Root>
          <Icon color="teal.fg" aria-hidden="true">
            <LuTrendingUp />
          </Icon>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
