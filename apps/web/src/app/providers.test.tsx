import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { parseRuntimeConfig } from '@md/shared';
import { createQueryClient } from './providers.tsx';

describe('the query client offline', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('runs a mutation made offline at once and lets it fail: nothing is queued for the connection’s return', async () => {
    onlineManager.setOnline(false);
    const send = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const observer = new MutationObserver(createQueryClient(), { mutationFn: send });
    await expect(observer.mutate()).rejects.toThrow('Failed to fetch');
    expect(send).toHaveBeenCalledTimes(1);
    expect(observer.getCurrentResult().isPaused).toBe(false);
    expect(observer.getCurrentResult().status).toBe('error');
    // The connection returns: the failed action is not sent again.
    onlineManager.setOnline(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('the runtime config', () => {
  it('fills in the defaults and keeps what was given', () => {
    expect(parseRuntimeConfig({ mode: 'provider', apiBaseUrl: 'https://api.example' })).toEqual({
      mode: 'provider',
      trpcUrl: '/trpc',
      apiBaseUrl: 'https://api.example',
      depositBaseUrl: '',
      walletCheckUrl: '',
      depositGateway: 'nowpayments',
      requestTimeoutMs: 20_000,
      capabilities: [],
    });
  });

  it('refuses a field of the wrong type, naming it', () => {
    expect(() => parseRuntimeConfig({ mode: 'live' })).toThrow(/^Invalid \/config\.json at mode: /);
    expect(() => parseRuntimeConfig({ mode: 'mock', requestTimeoutMs: 0 })).toThrow(/at requestTimeoutMs/);
    expect(() => parseRuntimeConfig({ mode: 'mock', demoHint: { username: 'demo' } })).toThrow(
      /at demoHint\.password/,
    );
  });
});
