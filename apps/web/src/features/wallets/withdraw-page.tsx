/**
 * Withdraw (/dashboard/withdraw, spec §2): the spec's placeholder, the word Withdraw, and its own
 * sentence "Withdrawals are made from the Wallets tab" made a way on: a link to the Wallets page
 * opened at its Withdrawal Request tab, so the menu entry is no dead end.
 */
import { Button, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { LuArrowRight } from 'react-icons/lu';
import { useT } from '@/lib/i18n/i18n.tsx';
import { WITHDRAWAL_TAB_LINK } from './wallets-tabs.ts';

export default function WithdrawPage() {
  const t = useT();
  return (
    <Stack gap="4" align="flex-start">
      <Heading as="h1" size="2xl">
        {t('nav.withdraw.heading')}
      </Heading>
      <Text color="fg.muted">{t('wallets.withdrawPage.madeFromWallets')}</Text>
      <Button asChild colorPalette="teal">
        <RouterLink to={WITHDRAWAL_TAB_LINK}>
          {t('wallets.withdrawPage.goToRequest')}
          {/* Points the way the text reads: left in Arabic. */}
          <Icon aria-hidden="true" _rtl={{ transform: 'scaleX(-1)' }}>
            <LuArrowRight />
          </Icon>
        </RouterLink>
      </Button>
    </Stack>
  );
}
