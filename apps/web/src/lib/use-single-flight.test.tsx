import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSingleFlight } from './use-single-flight.ts';

afterEach(() => vi.useRealTimers());

describe('useSingleFlight', () => {
  it('sends once for calls made in the same frame, and again once the first has answered', async () => {
    const { result } = renderHook(() => useSingleFlight());
    const send = vi.fn(() => Promise.resolve('ok'));
    await act(async () => {
      const [a, b] = [result.current.run(send), result.current.run(send)];
      expect(await a).toBe('ok');
      expect(await b).toBe('ok');
    });
    expect(send).toHaveBeenCalledTimes(1);
    await act(() => result.current.run(send));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('with a hold, keeps the lock for the hold after a quick answer, and never releases a call in flight', async () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useSingleFlight(10_000));
    const send = vi.fn(() => Promise.resolve('ok'));
    await act(() => result.current.run(send));
    expect(result.current.pending).toBe(true);
    expect(result.current.sending).toBe(false);
    await act(() => result.current.run(send));
    expect(send).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(result.current.pending).toBe(false);
    await act(() => result.current.run(send));
    expect(send).toHaveBeenCalledTimes(2);

    // A call slower than the hold keeps the lock until it answers.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    let answer!: (value: string) => void;
    const slow = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    let first!: Promise<string>;
    act(() => void (first = result.current.run(slow)));
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(result.current.pending).toBe(true);
    void result.current.run(slow);
    expect(slow).toHaveBeenCalledTimes(1);
    await act(async () => {
      answer('late');
      expect(await first).toBe('late');
    });
    expect(result.current.pending).toBe(false);
  });

  it('releases the lock after a call that failed', async () => {
    const { result } = renderHook(() => useSingleFlight());
    await act(() =>
      expect(result.current.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused'),
    );
    expect(result.current.pending).toBe(false);
  });
});
