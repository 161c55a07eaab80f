/**
 * Withdraw (/dashboard/withdraw, spec §2): the spec's placeholder, the word Withdraw, and its own
 * sentence "Withdrawals are made from the Wallets tab" made a way on: a link to the Wallets page
 * opened at its Withdrawal Request tab, so the menu entry is no dead end.
 */
import { Button, Heading, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { LuArrowRight } from 'react-icons/lu';
import { WITHDRAWAL_TAB_LINK } from './wallets-tabs.ts';

export default function WithdrawPage() {
  return (
    <Stack gap="4" align="flex-start">
      <Heading as="h1" size="2xl">
        Withdraw
      </Heading>
      <Text color="fg.muted">Withdrawals are made from the Wallets tab.</Text>
      <Button asChild colorPalette="teal">
        <RouterLink to={WITHDRAWAL_TAB_LINK}>
          Go to Withdrawal Request
          <LuArrowRight />
        </RouterLink>
      </Button>
    </Stack>
  );
}
