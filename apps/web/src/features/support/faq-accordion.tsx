/** The FAQ accordion of the Support page: one item open at a time, all closable. */
import { Accordion, Text } from '@chakra-ui/react';
import { useT } from '@/lib/i18n/i18n.tsx';
import { FAQ_ITEMS } from './faq.ts';

export function FaqAccordion() {
  const t = useT();
  return (
    <Accordion.Root collapsible variant="enclosed">
      {FAQ_ITEMS.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.ItemTrigger cursor="pointer" textAlign="start" fontWeight="medium">
            <Text flex="1">{t(item.question)}</Text>
            <Accordion.ItemIndicator />
          </Accordion.ItemTrigger>
          <Accordion.ItemContent>
            <Accordion.ItemBody color="fg.muted">{t(item.answer, item.values)}</Accordion.ItemBody>
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
