/**
 * The QA panel: a floating "QA" button on every page (the sign-in page too, so QA can read an
 * OTP before signing in) that opens a drawer of tabs over the QA control API. Loaded lazily by
 * index.tsx, and only in mock mode with the server's 'qa' capability.
 */
import { useEffect, useState } from 'react';
import { Button, CloseButton, Drawer, Portal, Tabs, Text } from '@chakra-ui/react';
import { LuFlaskConical } from 'react-icons/lu';
import { ClockTab } from './clock-tab.tsx';
import { DataTab } from './data-tab.tsx';
import { DriftTab } from './drift-tab.tsx';
import { FaultsTab } from './faults-tab.tsx';
import { JournalTab } from './journal-tab.tsx';
import { MailboxTab } from './mailbox-tab.tsx';
import { DepositsTab, WithdrawalsTab } from './money-tabs.tsx';
import { QaTokenPrompt } from './qa-token-prompt.tsx';

const TABS = [
  { value: 'clock', label: 'Clock' },
  { value: 'mailbox', label: 'Mailbox' },
  { value: 'deposits', label: 'Deposits' },
  { value: 'withdrawals', label: 'Withdrawals' },
  { value: 'faults', label: 'Faults' },
  { value: 'data', label: 'Data' },
  { value: 'journal', label: 'Journal' },
  { value: 'drift', label: 'Drift' },
] as const;
type TabValue = (typeof TABS)[number]['value'];

/** Alt+Shift+Q: a member's modal dialog (an OTP prompt) blocks the button, not the keyboard. */
const isShortcut = (event: KeyboardEvent) =>
  event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyQ';

/** The button's offset (≤ 1rem) + its height (2.25rem) + a gap: what the page keeps clear at its bottom. */
const QA_BUTTON_CLEARANCE = '4.5rem';
const QA_BUTTON_CLEARANCE_CSS =
  `main:not(.chakra-card__root) { padding-bottom: ${QA_BUTTON_CLEARANCE} !important; }\n` +
  `:has(> main.chakra-card__root) { padding-bottom: ${QA_BUTTON_CLEARANCE} !important; }`;

export default function QaPanel() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Kept here, not in the tabs: closing the drawer (which unmounts them) keeps the tab and filter.
  const [tab, setTab] = useState<TabValue>('clock');
  const [mailFilter, setMailFilter] = useState('');

  return (
    // lazyMount + unmountOnExit: a closed panel makes no requests (its tabs poll only while shown).
    <Drawer.Root
      open={open}
      onOpenChange={(details) => setOpen(details.open)}
      placement="end"
      size="md"
      lazyMount
      unmountOnExit
    >
      {/*
        The button floats over the page's bottom end corner: the page keeps a strip at its bottom
        as tall as the button and its offset, so scrolled to the end, nothing is under it.
        The dashboard's main region gets it, or the box around a sign-in card (which is the main).
        !important: the layouts' own padding is a class, which outranks these selectors.
      */}
      <style>{QA_BUTTON_CLEARANCE_CSS}</style>
      <Drawer.Trigger asChild>
        <Button
          aria-label="QA panel"
          title="QA panel (Alt+Shift+Q): clock, mailbox, deposits, withdrawals, faults, data, journal, drift"
          position="fixed"
          bottom={{ base: '3', md: '4' }}
          insetEnd={{ base: '3', md: '4' }}
          // Above the page and its sticky header, below dialogs and toasts.
          zIndex="banner"
          size="sm"
          colorPalette="purple"
          borderRadius="full"
          boxShadow="lg"
          aria-keyshortcuts="Alt+Shift+Q"
          data-testid="qa-panel-toggle"
        >
          <LuFlaskConical />
          QA
        </Button>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          {/* A little wider than size md, so the eight tabs fit on one row from a tablet up. */}
          <Drawer.Content data-testid="qa-panel" maxW={{ sm: '36rem' }}>
            <Drawer.Header borderBottomWidth="1px" pb="3">
              <Drawer.Title display="flex" alignItems="center" gap="2">
                <LuFlaskConical />
                QA panel
              </Drawer.Title>
              <Text fontSize="xs" color="fg.muted" me="8">
                mock mode
              </Text>
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
                  // A phone wraps the eight tabs onto two rows rather than hiding some off-screen.
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
              </Tabs.Root>
            </Drawer.Body>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
