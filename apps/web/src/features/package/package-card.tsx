/** One selectable package: a toggle button (aria-pressed) usable by click or keyboard. */
import { Badge, Card, DataList, HStack, Heading, Text } from '@chakra-ui/react';
import { formatMoney, type packageSchema } from '@md/shared';
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
    ['Binary Volume', String(pkg.Binary_Volume)],
    ['Rank Volume', String(pkg.Rank_Volume)],
    ['Daily ROI', `${pkg.ROI_Percentage}%`],
  ];
  return (
    <Card.Root
      data-testid={`package-card-${pkg.Name}`}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`${pkg.Name} package, ${formatMoney(pkg.Price)}`}
      variant="outline"
      cursor="pointer"
      borderWidth="2px"
      borderColor={selected ? 'teal.solid' : 'border'}
      bg={selected ? 'teal.subtle' : 'bg.panel'}
      transition="border-color 0.15s, background 0.15s"
      _hover={{ borderColor: selected ? 'teal.solid' : 'teal.muted' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'teal.focusRing', outlineOffset: '2px' }}
      onClick={onSelect}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onSelect();
        }
      }}
    >
      <Card.Header>
        <HStack justify="space-between" gap="2">
          <Heading as="h2" size="md">
            {pkg.Name}
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
