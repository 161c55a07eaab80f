import { describe, expect, it } from 'vitest';
import { ContractError } from '../src/core/errors.ts';
import { checkOutput } from '../src/transport/output-check.ts';

describe('the output check (development and tests)', () => {
  it('passes an answer of the contract and names the endpoint and field of one that breaks it, every time it is answered', () => {
    expect(() => checkOutput('rank.current_rank', { Success: { Rank: 'Bronze' } })).not.toThrow();
    const broken = { Success: { Rank: 7 } };
    for (let i = 0; i < 2; i++) {
      let error: unknown;
      try {
        checkOutput('rank.current_rank', broken);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ContractError);
      expect((error as ContractError).status).toBe(500);
      expect((error as ContractError).message).toBe(
        'Answer of /rank/current_rank breaks the contract: Success.Rank: Invalid input: expected string, received number',
      );
    }
  });

  it('checks an answer object once: a cached answer that passed is not checked again on its next hits', () => {
    const answer = { Success: { Rank: 'Bronze' } };
    checkOutput('rank.current_rank', answer);
    // Nothing may change an answer once made; if something did, the check would not see it again.
    (answer.Success as { Rank: unknown }).Rank = 7;
    expect(() => checkOutput('rank.current_rank', answer)).not.toThrow();
    // A different object with the same broken content is checked.
    expect(() => checkOutput('rank.current_rank', { Success: { Rank: 7 } })).toThrow(ContractError);
  });
});
