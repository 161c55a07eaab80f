/** Support (/dashboard/support, spec §2): the FAQ, the Contact Support form and the help card. */
import { Card, GridItem, HStack, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { LuClock, LuHeadset } from 'react-icons/lu';
import { PageHeader } from '@/components/page-header.tsx';
import { SectionCard } from '@/components/section-card.tsx';
import { EXTRA_ROUTES } from '@/components/shell/nav-items.ts';
import { ContactForm } from './contact-form.tsx';
import { FaqAccordion } from './faq-accordion.tsx';

const route = EXTRA_ROUTES.find((r) => r.path === '/dashboard/support')!;

function HelpCard() {
  return (
    <Card.Root as="aside" variant="subtle" aria-label="Support hours">
      <Card.Body gap="4">
        <HStack gap="3">
          <Icon as={LuHeadset} boxSize="6" color="teal.fg" />
          <Heading as="h2" size="md">
            Need more help?
          </Heading>
        </HStack>
        <Text color="fg.muted">Our support team answers every message sent with the form.</Text>
        <HStack gap="3" align="start">
          <Icon as={LuClock} boxSize="5" color="teal.fg" mt="0.5" flexShrink={0} />
          <Text>
            Support is available <strong>Monday to Friday, 9am to 5pm EST</strong>.
          </Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export default function SupportPage() {
  return (
    <Stack gap="6">
      <PageHeader route={route} />
      <SectionCard title="Frequently Asked Questions">
        <FaqAccordion />
      </SectionCard>
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
        <GridItem colSpan={{ base: 1, lg: 2 }}>
          <SectionCard title="Contact Support" description="Send us a message and we will reply by email.">
            <ContactForm />
          </SectionCard>
        </GridItem>
        <HelpCard />
      </SimpleGrid>
    </Stack>
  );
}
