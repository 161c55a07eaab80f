/** A button opening a menu of checkboxes: the column chooser and the preset filters. */
import type { ReactNode } from 'react';
import { Button, Menu, Portal } from '@chakra-ui/react';

export interface CheckboxMenuItem {
  value: string;
  label: string;
  checked: boolean;
}

interface CheckboxMenuProps {
  label: ReactNode;
  /** The button's accessible name when it differs from its text. */
  ariaLabel?: string;
  items: readonly CheckboxMenuItem[];
  onToggle: (value: string, checked: boolean) => void;
}

export function CheckboxMenu({ label, ariaLabel, items, onToggle }: CheckboxMenuProps) {
  return (
    // Several boxes are usually ticked in a row: the menu stays open on select.
    <Menu.Root closeOnSelect={false}>
      <Menu.Trigger asChild>
        <Button size="sm" variant="outline" aria-label={ariaLabel}>
          {label}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="44">
            {items.map((item) => (
              <Menu.CheckboxItem
                key={item.value}
                value={item.value}
                checked={item.checked}
                onCheckedChange={(checked) => onToggle(item.value, checked)}
              >
                {item.label}
                <Menu.ItemIndicator />
              </Menu.CheckboxItem>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
