/** The hover panel of a binary node (spec §2): Current Binary, Earnings, Direct Bonus and the plans. */
import { useEffect } from 'react';
import { Badge, Box, Card, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { recordOf, textOf } from '@/lib/guards.ts';
import { useFormat, useLocale, useT } from '@/lib/i18n/i18n.tsx';
import { useTRPC } from '@/lib/trpc.ts';

/** The details query: loaded on first hover, then cached; rows read the cache for their dot and sponsor. */
export function useNodeDetails(username: string, enabled: boolean) {
  const trpc = useTRPC();
  const query = useQuery({
    ...trpc['binary.view_binary_downline_details'].queryOptions({ username }),
    enabled,
    retry: false,
  });
  // Spec §8: failures are only logged.
  useEffect(() => {
    if (query.error && enabled) console.error(`Failed to load the details of ${username}`, query.error);
  }, [query.error, enabled, username]);
  return query;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Box display="flex" justifyContent="space-between" gap="4">
      <Text color="fg.muted">{label}</Text>
      <Text fontWeight="semibold">{value}</Text>
    </Box>
  );
}

export function NodeDetails({ username }: { username: string }) {
  const t = useT();
  const f = useFormat();
  const { data, isPending, isError } = useNodeDetails(username, true);
  const details = recordOf(recordOf(data)?.Success);
  // Read defensively (spec §8): a missing pair or plan map shows zeros and 'No plans'.
  const binary = Array.isArray(details?.Current_Binary) ? (details.Current_Binary as unknown[]) : [];
  const plans = Object.entries(recordOf(details?.Total_User_Subscription_Plan) ?? {}).map(
    ([plan, info]) => [plan, recordOf(info) ?? {}] as const,
  );
  return (
    <Stack gap="2" fontSize="sm" data-testid="node-details">
      <Heading as="h3" size="sm">
        {username}
      </Heading>
      {isPending ? (
        <Spinner size="sm" role="status" aria-label={t('network.details.loading')} />
      ) : isError || !details ? (
        <Text color="fg.muted">{t('network.details.none')}</Text>
      ) : (
        <>
          <Figure
            label={t('network.details.currentBinary')}
            value={t('network.details.currentBinaryValue', {
              left: f.money(binary[0]),
              right: f.money(binary[1]),
            })}
          />
          <Text fontSize="xs" color="fg.muted" mt="-2" textAlign="end">
            {t('network.details.leftRight')}
          </Text>
          <Figure label={t('network.details.earnings')} value={f.money(details.Earnings)} />
          <Figure label={t('network.details.directBonus')} value={f.money(details.Direct_Bouns)} />
          <Text fontWeight="semibold" mt="1">
            {t('network.details.plans')}
          </Text>
          {plans.length === 0 ? (
            <Text color="fg.muted">{t('network.details.noPlans')}</Text>
          ) : (
            <Stack as="ul" gap="1" listStyleType="none" m="0" p="0">
              {plans.map(([plan, info]) => (
                <Box
                  as="li"
                  key={plan}
                  display="flex"
                  justifyContent="space-between"
                  gap="3"
                  alignItems="center"
                >
                  <Text>{plan}</Text>
                  <Badge colorPalette={info.Active ? 'green' : 'red'} variant="subtle">
                    {t(info.Active ? 'network.status.active' : 'network.status.inactive')}
                  </Badge>
                  <Text color="fg.muted" fontSize="xs">
                    {t('network.details.expiry', {
                      date: textOf(info.Expiry) ? f.dateTime(info.Expiry) : '-',
                    })}
                  </Text>
                </Box>
              ))}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}

/** The hover panel, floated beside the hovered (or focused) row, clamped to the viewport. */
export function FloatingDetails({ username, rect }: { username: string; rect: DOMRect }) {
  const width = 300;
  // Beside the row's end: its right in left to right, its left in right to left (screen coordinates).
  const rtl = useLocale().direction === 'rtl';
  const beside = rtl ? rect.left - 8 - width : rect.right + 8;
  const left = Math.max(8, Math.min(beside, window.innerWidth - width - 8));
  const fitsBeside = rtl ? beside >= 0 : beside + width <= window.innerWidth;
  // Beside the row on wide screens; below it on phones.
  const top = fitsBeside ? rect.top : rect.bottom + 4;
  return (
    <Card.Root
      position="fixed"
      zIndex="popover"
      top={`${Math.min(top, window.innerHeight - 260)}px`}
      left={`${left}px`}
      w={`${width}px`}
      maxW="calc(100vw - 16px)"
      shadow="lg"
      pointerEvents="none"
      size="sm"
    >
      <Card.Body>
        <NodeDetails username={username} />
      </Card.Body>
    </Card.Root>
  );
}
