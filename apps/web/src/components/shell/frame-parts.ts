/**
 * The dashboard frame's Chakra parts (frame-chakra.tsx) on demand. The frame is drawn with the first
 * screen's classes, so a dashboard opens without Chakra's runtime (its chunk's evaluation was the
 * largest task of a phone's load); the header's menus, the phone's drawer and the package balance
 * load it when first used. A menu's trigger is the frame's own button from the start: the list
 * anchors to it and gives focus back to it (Ark's `ids`), so nothing under the pointer is swapped.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { useT } from '@/lib/i18n/i18n.tsx';
import { loadChunk } from '@/lib/chunk-load.ts';
import { notify } from '@/lib/toaster.ts';
import type * as FramePartsModule from './frame-chakra.tsx';

export type FrameParts = typeof FramePartsModule;
const loadFrameParts = (): Promise<FrameParts> => import('./frame-chakra.tsx');

/** Starts loading the parts (a pointer over a trigger, a trigger focused): the click finds them in. */
const preloadFrameParts = () => void loadFrameParts().catch(() => undefined);

/**
 * The parts once loaded. `request()` loads them (tried again on failure, then a toast saying the
 * connection dropped) and runs `then` once they are in; `wanted` loads them at once.
 */
export function useFrameParts(wanted = false) {
  const t = useT();
  const [parts, setParts] = useState<FrameParts>();
  const request = useCallback(
    (then?: () => void) => {
      loadChunk(loadFrameParts).then(
        (loaded) => {
          setParts(() => loaded);
          then?.();
        },
        () => notify.error(t('common.chunkError.body')),
      );
    },
    [t],
  );
  useEffect(() => {
    if (wanted && !parts) request();
  }, [wanted, parts, request]);
  return { parts, request };
}

/** How a menu was opened: a pointer highlights nothing; the keyboard its first item (Enter, Space, ArrowDown) or its last (ArrowUp), as Ark's own trigger does. */
export type MenuOpener = 'pointer' | 'first' | 'last';

/** A header menu: its open state, how it was opened, and the ids its trigger and list share. */
export interface FrameMenu {
  open: boolean;
  opener: MenuOpener;
  setOpen: (open: boolean) => void;
  triggerId: string;
  contentId: string;
}

/**
 * A menu whose list is Chakra's, opened from the frame's own button: `trigger` goes on the button
 * (what Ark's trigger would set: the popup's role, expanded, controls; a click or ArrowDown opens).
 */
export function useFrameMenu(onOpen?: () => void) {
  const id = useId();
  const [open, setOpenState] = useState(false);
  const [opener, setOpener] = useState<MenuOpener>('pointer');
  const { parts, request } = useFrameParts();
  const setOpen = useCallback(
    (next: boolean) => {
      if (next) onOpen?.();
      setOpenState(next);
    },
    [onOpen],
  );
  const show = (how: MenuOpener) => {
    setOpener(how);
    if (parts) setOpen(true);
    else request(() => setOpen(true));
  };
  const menu: FrameMenu = { open, opener, setOpen, triggerId: `${id}-trigger`, contentId: `${id}-content` };
  const trigger = {
    id: menu.triggerId,
    'aria-haspopup': 'menu' as const,
    'aria-expanded': open,
    'aria-controls': open ? menu.contentId : undefined,
    'data-state': open ? 'open' : 'closed',
    onPointerEnter: preloadFrameParts,
    onFocus: preloadFrameParts,
    // A click from Enter or Space has no pointer behind it (detail 0).
    onClick: (event: { detail: number }) =>
      open ? setOpen(false) : show(event.detail === 0 ? 'first' : 'pointer'),
    onKeyDown: (event: { key: string; preventDefault: () => void }) => {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      show(event.key === 'ArrowDown' ? 'first' : 'last');
    },
  };
  return { menu, parts, trigger };
}
