/** Support (/dashboard/support, spec §2): the FAQ, the Contact Support form and the help card. */
import { Card, GridItem, HStack, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuClock, LuHeadset } from 'react-icons/lu';
import { PageHeader } from '@/components/page-header.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { EXTRA_ROUTES } from '@/components/shell/nav-items.ts';
import { T, useT } from '@/lib/i18n/i18n.tsx';
import { ContactForm } from './contact-form.tsx';
import { FaqAccordion } from './faq-accordion.tsx';

const route = EXTRA_ROUTES.find((r) => r.path === '/dashboard/support')!;

function HelpCard() {
  const t = useT();
  return (
    <Card.Root as="aside" variant="subtle" aria-label={t('support.hours.label')}>
      <Card.Body gap="4">
        <HStack gap="3">
          <Icon as={LuHeadset} boxSize="6" color="teal.fg" />
          <Heading as="h2" size="md">
            {t('support.hours.title')}
          </Heading>
        </HStack>
        <Text color="fg.muted">{t('support.hours.answers')}</Text>
        <HStack gap="3" align="start">
          <Icon as={LuClock} boxSize="5" color="teal.fg" mt="0.5" flexShrink={0} />
          <Text>
            <T id="support.hours.available" values={{ strong: (chunks) => <strong>{chunks}</strong> }} />
          </Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export default function SupportPage() {
  const t = useT();
  return (
    <Stack gap="6">
      <PageHeader route={route} />
      <SectionCard title={t('support.faq.title')}>
        <FaqAccordion />
      </SectionCard>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
        <GridItem colSpan={{ base: 1, lg: 2 }}>
          <SectionCard title={t('support.contact.title')} description={t('support.contact.description')}>
            <ContactForm />
          </SectionCard>
        </GridItem>
        <HelpCard />
      </SimpleGrid>
    </Stack>
  );
}
