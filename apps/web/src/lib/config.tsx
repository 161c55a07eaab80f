/** Runtime configuration: /config.json, validated with the shared schema, loaded once at boot. */
import { createContext, useContext, type ReactNode } from 'react';
import { parseRuntimeConfig, type RuntimeConfig } from '@md/shared';

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`Could not load /config.json (HTTP ${response.status})`);
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
