/**
 * The JSON of an answer, computed once per answer object: the read cache hands out the same
 * object until the next write, so its JSON is kept with it (and freed with it). REST sends it as
 * the body, tRPC inside its result envelope (trpc-http.ts). What JSON.stringify would give, without
 * the work on every call.
 */
const serialized = new WeakMap<object, string>();

export function serializeAnswer(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null) return JSON.stringify(answer);
  let json = serialized.get(answer);
  if (json === undefined) serialized.set(answer, (json = JSON.stringify(answer)));
  return json;
}
