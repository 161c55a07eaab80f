import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepAnswerJson, serializeAnswer } from '../src/core/answer-json.ts';
import { createReadCache } from '../src/core/read-cache.ts';

describe('serializeAnswer', () => {
  it("keeps the JSON of an answer a read cache keeps, and makes an answer's sent once each time", () => {
    // Answers are never changed once made; a test changes one to see which JSON is sent.
    const once = { Success: [{ id: '1' }] };
    expect(serializeAnswer(once)).toBe('{"Success":[{"id":"1"}]}');
    once.Success[0]!.id = '2';
    expect(serializeAnswer(once)).toBe('{"Success":[{"id":"2"}]}');

    const kept = { Success: [{ id: '1' }] };
    keepAnswerJson(kept);
    expect(serializeAnswer(kept)).toBe('{"Success":[{"id":"1"}]}');
    kept.Success[0]!.id = '2';
    expect(serializeAnswer(kept)).toBe('{"Success":[{"id":"1"}]}');
    // Kept again (another cache): its JSON stays.
    keepAnswerJson(kept);
    expect(serializeAnswer(kept)).toBe('{"Success":[{"id":"1"}]}');
    for (const value of [null, 3, 'text', undefined]) {
      keepAnswerJson(value);
      expect(serializeAnswer(value)).toBe(JSON.stringify(value));
    }
  });

  it('is told by the read cache which answers it keeps', () => {
    const sqlite = new Database(':memory:');
    const cache = createReadCache<{ Success: number[] }>(10);
    const answer = cache.get(sqlite, 1, 'page', () => ({ Success: [1] }));
    expect(serializeAnswer(answer)).toBe('{"Success":[1]}');
    answer.Success.push(2);
    expect(serializeAnswer(cache.get(sqlite, 1, 'page', () => ({ Success: [9] })))).toBe('{"Success":[1]}');
    // Inside a transaction nothing is kept: each answer is made and sent once.
    const inside = sqlite.transaction(() => cache.get(sqlite, 2, 'page', () => ({ Success: [1] })))();
    serializeAnswer(inside);
    inside.Success.push(2);
    expect(serializeAnswer(inside)).toBe('{"Success":[1,2]}');
    sqlite.close();
  });
});
