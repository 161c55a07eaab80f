/** A tiny bus so transport code (links) can end the session without knowing about React or the router. */
type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionEnded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function emitSessionEnded() {
  for (const listener of listeners) listener();
}
