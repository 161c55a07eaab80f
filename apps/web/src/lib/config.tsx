/** Runtime configuration: /config.json, validated with the shared schema, loaded once at boot. */
import { createContext, useContext, type ReactNode } from 'react';
import { parseRuntimeConfig, type RuntimeConfig } from '@md/shared';
import { configUrl, WORLD_HEADER, worldFetch } from './world.ts';

/** /config.json answered an error status; `world`: the QA world it says is gone (its X-QA-World). */
export class ConfigLoadError extends Error {
  constructor(
    readonly status: number,
    readonly world: string | null = null,
  ) {
    super(`Could not load /config.json (HTTP ${status})`);
    this.name = 'ConfigLoadError';
  }
}

export async function loadRuntimeConfig(fetchImpl: typeof fetch = worldFetch): Promise<RuntimeConfig> {
  const response = await fetchImpl(configUrl(), { headers: { Accept: 'application/json' } });
  if (!response.ok)
    throw new ConfigLoadError(
      response.status,
      response.status === 404 ? response.headers.get(WORLD_HEADER) : null,
    );
  return parseRuntimeConfig(await response.json());
}

/** Where the wallet-address check (GET wallet stats on BSC) goes: {walletCheckUrl}{address}. */
export const walletCheckUrlFor = (config: RuntimeConfig, address: string) =>
  `${config.walletCheckUrl}${address}`;
export const hasCapability = (config: RuntimeConfig, capability: string) =>
  config.capabilities.includes(capability);

const ConfigContext = createContext<RuntimeConfig | null>(null);

export function ConfigProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

export function useConfig(): RuntimeConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useConfig must be used within a ConfigProvider');
  return config;
}
