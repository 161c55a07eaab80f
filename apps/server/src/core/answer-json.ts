/**
 * The JSON of an answer, kept with the answer when it will be sent again: a read cache hands out
 * the same object until the next write, so its JSON is made once (and freed with it). REST sends
 * it as the body, tRPC inside its result envelope (transport/trpc-http.ts). An answer sent once (a
 * read with the cache off, a write's) gets no entry: adding one was ~1.6 µs a call, most of it the
 * collector's work on the weak map.
 */
const serialized = new WeakMap<object, string | undefined>();

/**
 * An answer already written as JSON: a page of rows that carry their own text (modules/tables). It
 * is sent as it is; a reader that wants the object (the output check, the QA journal) parses it
 * through `toJSON`, as JSON.stringify does.
 */
export class WrittenAnswer<T = unknown> {
  /** The answer as an object, never read: it types the text as the answer it stands for. */
  declare readonly answer?: T;
  constructor(readonly json: string) {}
  toJSON(): T {
    return JSON.parse(this.json) as T;
  }
}

/** A read cache keeps `value`: its JSON, once made, is kept beside it (a written answer is its JSON). */
export function keepAnswerJson(value: unknown): void {
  if (typeof value !== 'object' || value === null || value instanceof WrittenAnswer) return;
  if (!serialized.has(value)) serialized.set(value, undefined);
}

/** What JSON.stringify gives, made once for an answer a read cache keeps. */
export function serializeAnswer(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null) return JSON.stringify(answer);
  if (answer instanceof WrittenAnswer) return answer.json;
  let json = serialized.get(answer);
  if (json === undefined) {
    json = JSON.stringify(answer);
    if (serialized.has(answer)) serialized.set(answer, json);
  }
  return json;
}
