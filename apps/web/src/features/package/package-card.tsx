/**
 * One selectable package. The card takes a click anywhere; the package name is the toggle button
 * (aria-pressed) that keyboard and screen-reader users reach, so the button's name is the text it
 * shows (a whole card as a button would carry a heading and a list inside a control).
 */
import { Badge, Card, chakra, DataList, HStack, Heading, Text } from '@chakra-ui/react';
import { formatMoney, formatPercent, type packageSchema } from '@md/shared';
import type { z } from 'zod';

export type Package = z.infer<typeof packageSchema>;

interface PackageCardProps {
  pkg: Package;
  current: boolean;
  selected: boolean;
  onSelect: () => void;
}

export function PackageCard({ pkg, current, selected, onSelect }: PackageCardProps) {
  const rows: [string, string][] = [
    ['Max Cap', formatMoney(pkg.Max_Cap)],
    // Volumes are USDT, as on the Volume page.
    ['Binary Volume', formatMoney(pkg.Binary_Volume)],
    ['Rank Volume', formatMoney(pkg.Rank_Volume)],
    ['Daily ROI', formatPercent(pkg.ROI_Percentage)],
  ];
  return (
    <Card.Root
      data-testid={`package-card-${pkg.Name}`}
      variant="outline"
      cursor="pointer"
      borderWidth="2px"
      borderColor={selected ? 'teal.solid' : 'border'}
      bg={selected ? 'teal.subtle' : 'bg.panel'}
      transition="border-color 0.15s, background 0.15s"
      _hover={{ borderColor: selected ? 'teal.solid' : 'teal.muted' }}
      // The whole card shows the focus of its button.
      css={{
        '&:has(button:focus-visible)': {
          outline: '2px solid',
          outlineColor: 'teal.focusRing',
          outlineOffset: '2px',
        },
      }}
      // The button's own click (Enter, Space) bubbles here too: one handler for both.
      onClick={onSelect}
    >
      <Card.Header>
        <HStack justify="space-between" gap="2">
          <Heading as="h2" size="md">
            <chakra.button
              type="button"
              aria-pressed={selected}
              cursor="pointer"
              textAlign="start"
              outline="none"
            >
              {pkg.Name}
            </chakra.button>
          </Heading>
          {current && (
            <Badge colorPalette="green" variant="solid">
              Current
            </Badge>
          )}
        </HStack>
        <Text fontSize="2xl" fontWeight="bold" color="teal.fg">
          {formatMoney(pkg.Price)}
        </Text>
      </Card.Header>
      <Card.Body pt="0">
        <DataList.Root orientation="horizontal" gap="1" size="sm">
          {rows.map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel>{label}</DataList.ItemLabel>
              <DataList.ItemValue justifyContent="flex-end" fontWeight="medium">
                {value}
              </DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      </Card.Body>
    </Card.Root>
  );
}
