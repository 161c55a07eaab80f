/** The FAQ accordion of the Support page: one item open at a time, all closable. */
import { Accordion, Text } from '@chakra-ui/react';
import { FAQ_ITEMS } from './faq.ts';

export function FaqAccordion() {
  return (
    <Accordion.Root collapsible variant="enclosed">
      {FAQ_ITEMS.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.ItemTrigger cursor="pointer" textAlign="start" fontWeight="medium">
            <Text flex="1">{item.question}</Text>
            <Accordion.ItemIndicator />
          </Accordion.ItemTrigger>
          <Accordion.ItemContent>
            <Accordion.ItemBody color="fg.muted">{item.answer}</Accordion.ItemBody>
          </Accordion.ItemContent>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
