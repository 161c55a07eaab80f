/** Route stub for dashboard pages a later release builds: the sidebar heading and description. */
import { Text } from '@chakra-ui/react';
import { useT } from '@/lib/i18n/i18n.tsx';
import { PageHeader } from './page-header.tsx';
import type { NavRoute } from './shell/nav-routes.ts';

export function ComingLaterPage({ route }: { route: Pick<NavRoute, 'path' | 'description'> }) {
  const t = useT();
  return (
    <section>
      <PageHeader route={route} />
      <Text color="fg.muted">{t('common.comingLater')}</Text>
    </section>
  );
}
