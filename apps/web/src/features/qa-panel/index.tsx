/**
 * Where the app mounts the QA control: only in mock mode when the server announces the 'qa'
 * capability (members in provider mode never see it), and the world's badge on every page of a QA
 * world, whatever its mode. This module stays tiny: the floating QA button, its keyboard shortcut,
 * the badge and the page's bottom clearance. The panel itself is a separate
 * chunk, fetched the first time the button is pressed (or Alt+Shift+Q), so a QA start loads the
 * sign-in page with what a member's start loads plus this button.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { ChunkBoundary } from '@/components/chunk-boundary.tsx';
import { LuFlaskConical } from '@/components/ui/first-screen-icons.ts';
import { loadChunk } from '@/lib/chunk-load.ts';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { notify } from '@/lib/toaster.ts';
import { WorldBadge } from './world-badge.tsx';

/** Alt+Shift+Q: a member's modal dialog (an OTP prompt) blocks the button, not the keyboard. */
const isShortcut = (event: KeyboardEvent) =>
  event.altKey && event.shiftKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyQ';

/** The button's offset (≤ 1rem) + its height (2.25rem) + a gap: what the page keeps clear at its bottom. */
const QA_BUTTON_CLEARANCE = '4.5rem';
/** Plain selectors, no :has(): a :has() rule makes the browser re-check ancestors on every DOM change of a rendering page. */
const QA_BUTTON_CLEARANCE_CSS =
  `main:not(.fs-card) { padding-bottom: ${QA_BUTTON_CLEARANCE} !important; }\n` +
  `[data-auth-frame] { padding-bottom: ${QA_BUTTON_CLEARANCE} !important; }`;

/** The panel, drawn with Chakra: its chunk brings Chakra's runtime if no screen has yet. */
const loadQaPanel = () => loadChunk(() => import('./qa-panel.tsx'));
export const QA_PANEL_LOAD_FAILED =
  'The QA panel could not be loaded. Check the connection, then press QA again.';

/** In place of a panel whose chunk failed: says so once, and lets the button try again. */
function PanelFailed({ onFailed }: { onFailed: () => void }) {
  useEffect(() => {
    notify.error(QA_PANEL_LOAD_FAILED);
    onFailed();
  }, [onFailed]);
  return null;
}

function QaControl() {
  const [open, setOpen] = useState(false);
  // Once asked for, the panel stays mounted (closed, it renders nothing and polls nothing).
  const [requested, setRequested] = useState(false);
  // A failed load is kept by its lazy(): the next press makes a new one.
  const [panel, setPanel] = useState(() => ({ count: 0, QaPanel: lazy(loadQaPanel) }));
  const failed = useCallback(() => {
    setRequested(false);
    setOpen(false);
    setPanel(({ count }) => ({ count: count + 1, QaPanel: lazy(loadQaPanel) }));
  }, []);
  const { QaPanel } = panel;
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcut(event)) return;
      event.preventDefault();
      setRequested(true);
      setOpen((o) => !o);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      {/* A plain button in Chakra's look (components/first-screen): a few hundred bytes, no Chakra runtime. */}
      <button
        type="button"
        ref={buttonRef}
        className="fs-qa-button"
        aria-label="QA panel"
        aria-haspopup="dialog"
        aria-expanded={open}
        title="QA panel (Alt+Shift+Q): clock, mailbox, deposits, withdrawals, faults, data, journal, drift"
        aria-keyshortcuts="Alt+Shift+Q"
        data-testid="qa-panel-toggle"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <LuFlaskConical />
        QA
      </button>
      {requested && (
        <ChunkBoundary key={panel.count} fallback={<PanelFailed onFailed={failed} />}>
          <Suspense fallback={null}>
            <QaPanel open={open} onOpenChange={setOpen} returnFocusTo={() => buttonRef.current} />
          </Suspense>
        </ChunkBoundary>
      )}
    </>
  );
}

export function QaPanelMount() {
  const config = useConfig();
  const panel = config.mode === 'mock' && hasCapability(config, 'qa');
  if (!panel && !config.qaWorld) return null;
  return (
    <>
      {/*
        The button and the badge float over the page's bottom corners: the page keeps a strip at its
        bottom as tall as the button and its offset, so scrolled to the end, nothing is under them.
        The dashboard's main region gets it, or the frame around a sign-in card (which is the main).
        !important: the layouts' own padding is a class, which outranks these selectors.
      */}
      <style>{QA_BUTTON_CLEARANCE_CSS}</style>
      {config.qaWorld && (
        <WorldBadge id={config.qaWorld} {...(config.qaWorldName ? { name: config.qaWorldName } : {})} />
      )}
      {panel && <QaControl />}
    </>
  );
}
