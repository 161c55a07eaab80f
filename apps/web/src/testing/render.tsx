/** Renders the real routes in memory with the real providers and a mocked API. */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { parseRuntimeConfig, type RuntimeConfig } from '@md/shared';
import { AppProviders } from '@/app/providers.tsx';
import { routes } from '@/app/router.tsx';
import { createMockClient, type MockHandlers } from './mock-link.ts';
import { englishI18n } from './i18n.ts';
import type { LoadedLocale } from '@/lib/i18n/i18n.tsx';

export const testConfig: RuntimeConfig = parseRuntimeConfig({
  mode: 'mock',
  demoHint: { username: 'demo', password: 'Demo@1234' },
});

/** `i18n`: the language to render in (testI18n('es') from testing/i18n.ts); English unless given. */
export function renderApp(
  path: string,
  handlers: MockHandlers = {},
  { i18n = englishI18n }: { i18n?: LoadedLocale } = {},
) {
  const calls: { path: string; input: unknown }[] = [];
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProviders config={testConfig} i18n={i18n} trpcClient={createMockClient(handlers, calls)}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, calls };
}
