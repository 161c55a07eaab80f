/**
 * The QA panel: a drawer of tabs over the QA control API, opened by the QA button (index.tsx).
 * This module and everything only it imports is one lazy chunk, fetched when the button is first
 * pressed (or Alt+Shift+Q): a page that never opens the panel never downloads it.
 */
import { useState } from 'react';
import { CloseButton, Drawer, Portal, Tabs, Text } from '@chakra-ui/react';
import { LuFlaskConical } from 'react-icons/lu';
import { useConfig } from '@/lib/config.tsx';
import { ClockTab } from './clock-tab.tsx';
import { DataTab } from './data-tab.tsx';
import { DriftTab } from './drift-tab.tsx';
import { FaultsTab } from './faults-tab.tsx';
import { JournalTab } from './journal-tab.tsx';
import { MailboxTab } from './mailbox-tab.tsx';
import { DepositsTab, WithdrawalsTab } from './money-tabs.tsx';
import { QaTokenPrompt } from './qa-token-prompt.tsx';
import { WorldsTab } from './worlds-tab.tsx';
import { ChakraRoot } from '@/components/ui/chakra-root.tsx';

/** Which world the panel drives (every tab's calls go to the world this page is in), as /config.json says. */
function WorldLine() {
  const { qaWorld: world, qaWorldName: name } = useConfig();
  return (
    <Text fontSize="xs" color="fg.muted" me="8" data-testid="qa-world-line" overflowWrap="anywhere">
      {world ? `world ${name ? `${name} (${world})` : world}` : 'default world'}
    </Text>
  );
}

const TABS = [
  { value: 'clock', label: 'Clock' },
  { value: 'mailbox', label: 'Mailbox' },
  { value: 'deposits', label: 'Deposits' },
  { value: 'withdrawals', label: 'Withdrawals' },
  { value: 'faults', label: 'Faults' },
  { value: 'data', label: 'Data' },
  { value: 'journal', label: 'Journal' },
  { value: 'drift', label: 'Drift' },
  { value: 'worlds', label: 'Worlds' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

/** What the mount (index.tsx) hands the panel: it owns the button and the open state. */
export interface QaPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus returns when the panel closes: the QA button. */
  returnFocusTo: () => HTMLElement | null;
}

export default function QaPanel({ open, onOpenChange, returnFocusTo }: QaPanelProps) {
  // Kept here, not in the tabs: closing the drawer (which unmounts them) keeps the tab and filter.
  const [tab, setTab] = useState<TabValue>('clock');
  const [mailFilter, setMailFilter] = useState('');

  return (
    // Its own Chakra root: the panel opens over sign-in too, which is drawn without Chakra.
    <ChakraRoot>
      {/* lazyMount + unmountOnExit: a closed panel makes no requests (its tabs poll only while shown). */}
      <Drawer.Root
        open={open}
        onOpenChange={(details) => onOpenChange(details.open)}
        finalFocusEl={returnFocusTo}
        placement="end"
        size="md"
        lazyMount
        unmountOnExit
      >
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            {/* A little wider than size md, so the nine tabs fit on one row from a tablet up. */}
            <Drawer.Content data-testid="qa-panel" maxW={{ sm: '38rem' }}>
              <Drawer.Header borderBottomWidth="1px" pb="3">
                <Drawer.Title display="flex" alignItems="center" gap="2">
                  <LuFlaskConical />
                  QA panel
                </Drawer.Title>
                <WorldLine />
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label="Close the QA panel" />
                </Drawer.CloseTrigger>
              </Drawer.Header>
              <Drawer.Body px={{ base: '3', sm: '5' }} pt="0">
                {/* Only when the server has a QA_TOKEN and this tab has not given it yet. */}
                <QaTokenPrompt />
                <Tabs.Root
                  value={tab}
                  onValueChange={(details) => setTab(details.value as TabValue)}
                  variant="line"
                  size="sm"
                  colorPalette="purple"
                  lazyMount
                  unmountOnExit
                >
                  <Tabs.List
                    position="sticky"
                    top="0"
                    zIndex="1"
                    bg="bg.panel"
                    // A phone wraps the tabs onto two rows rather than hiding some off-screen.
                    flexWrap={{ base: 'wrap', sm: 'nowrap' }}
                    overflowX={{ sm: 'auto' }}
                    mx={{ base: '-3', sm: '-5' }}
                    px={{ base: '3', sm: '5' }}
                  >
                    {TABS.map((t) => (
                      <Tabs.Trigger key={t.value} value={t.value} flexShrink={0}>
                        {t.label}
                      </Tabs.Trigger>
                    ))}
                  </Tabs.List>
                  <Tabs.Content value="clock">
                    <ClockTab />
                  </Tabs.Content>
                  <Tabs.Content value="mailbox">
                    <MailboxTab filter={mailFilter} onFilterChange={setMailFilter} />
                  </Tabs.Content>
                  <Tabs.Content value="deposits">
                    <DepositsTab />
                  </Tabs.Content>
                  <Tabs.Content value="withdrawals">
                    <WithdrawalsTab />
                  </Tabs.Content>
                  <Tabs.Content value="faults">
                    <FaultsTab />
                  </Tabs.Content>
                  <Tabs.Content value="data">
                    <DataTab />
                  </Tabs.Content>
                  <Tabs.Content value="journal">
                    <JournalTab />
                  </Tabs.Content>
                  <Tabs.Content value="drift">
                    <DriftTab />
                  </Tabs.Content>
                  <Tabs.Content value="worlds">
                    <WorldsTab />
                  </Tabs.Content>
                </Tabs.Root>
              </Drawer.Body>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </ChakraRoot>
  );
}
