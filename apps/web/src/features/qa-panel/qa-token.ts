/**
 * The QA token of this tab: a server started with QA_TOKEN answers 401 to /__qa calls
 * without it. The panel asks for it once (one prompt however many calls were refused), keeps it
 * in sessionStorage (this tab only, gone when the tab closes) and sends it as X-QA-Token. It is
 * never in /config.json or the bundle: whoever runs the server hands it to QA.
 */

export const QA_TOKEN_HEADER = 'X-QA-Token';
const STORAGE_KEY = 'qaToken';

export type QaTokenState =
  /** Nothing asked: no token needed, or the stored one works. */
  | { kind: 'idle' }
  /** A call was refused: the prompt shows; `refused` when the token sent was wrong. */
  | { kind: 'asking'; refused: boolean }
  /** The prompt was dismissed: calls fail with the server's 401 until QA asks to enter it. */
  | { kind: 'declined' };

// sessionStorage can throw (storage disabled): the panel then asks every time the tab reloads.
export function readQaToken(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
function writeQaToken(token: string | null) {
  try {
    if (token === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Kept for this call only.
  }
}

const IDLE: QaTokenState = { kind: 'idle' };
let state: QaTokenState = IDLE;
let pending: { promise: Promise<string | null>; resolve: (token: string | null) => void } | null = null;
const listeners = new Set<() => void>();

function setState(next: QaTokenState) {
  state = next;
  for (const listener of listeners) listener();
}

/** The prompt's state for useSyncExternalStore. */
export const qaTokenState = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => state,
};

/**
 * Called by a refused call: resolves with the token QA enters, or null when the prompt is
 * dismissed (or was before). Calls refused together share one prompt.
 */
export function askForQaToken(refused: boolean): Promise<string | null> {
  if (state.kind === 'declined') return Promise.resolve(null);
  if (refused) writeQaToken(null);
  if (!pending) {
    let resolve!: (token: string | null) => void;
    const promise = new Promise<string | null>((r) => (resolve = r));
    pending = { promise, resolve };
  }
  if (state.kind !== 'asking' || (refused && !state.refused)) setState({ kind: 'asking', refused });
  return pending.promise;
}

/** The prompt's answer: a token (kept for the tab) or null (dismissed). */
export function answerQaToken(token: string | null) {
  const waiting = pending;
  pending = null;
  if (token !== null) writeQaToken(token);
  setState(token === null ? { kind: 'declined' } : IDLE);
  waiting?.resolve(token);
}

/** After a dismissal: the next refused call asks again. */
export function allowQaTokenPrompt() {
  if (state.kind === 'declined') setState(IDLE);
}

/** The prompt went away (panel closed) with calls waiting: they fail; the next opening asks again. */
export function abandonQaTokenPrompt() {
  const waiting = pending;
  pending = null;
  setState(IDLE);
  waiting?.resolve(null);
}
