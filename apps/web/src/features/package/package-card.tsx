/**
 * One selectable package. The card takes a click anywhere; the package name is the toggle button
 * (aria-pressed) that keyboard and screen-reader users reach, so the button's name is the text it
 * shows (a whole card as a button would carry a heading and a list inside a control).
 */
import { Badge, Card, chakra, DataList, HStack, Heading, Text } from '@chakra-ui/react';
import type { packageSchema } from '@md/shared';
import { useFormat, useT } from '@/lib/i18n/i18n.tsx';
import type { z } from 'zod';

export type Package = z.infer<typeof packageSchema>;

interface PackageCardProps {
  pkg: Package;
  current: boolean;
  selected: boolean;
  onSelect: () => void;
}

export function PackageCard({ pkg, current, selected, onSelect }: PackageCardProps) {
  const t = useT();
  const f = useFormat();
  const rows: [string, string][] = [
    [t('packages.card.maxCap'), f.money(pkg.Max_Cap)],
    // Volumes are USDT, as on the Volume page.
    [t('packages.card.binaryVolume'), f.money(pkg.Binary_Volume)],
    [t('packages.card.rankVolume'), f.money(pkg.Rank_Volume)],
    [t('packages.card.dailyRoi'), f.percent(pkg.ROI_Percentage)],
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
              {t('packages.card.current')}
            </Badge>
          )}
        </HStack>
        <Text fontSize="2xl" fontWeight="bold" color="teal.fg">
          {f.money(pkg.Price)}
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
