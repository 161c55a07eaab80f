/**
 * Chakra's runtime with the app's system: every screen drawn with Chakra components renders inside
 * it. Sign-in is drawn without it (components/first-screen), so this module and what it imports
 * load with the first screen that needs them (app/router.tsx, the toasts, the QA panel, the update
 * prompt). Each of those mounts its own root; the global styles they insert are the same ones.
 */
import type { ReactNode } from 'react';
import { ChakraProvider, LocaleProvider } from '@chakra-ui/react';
import { useLocale } from '../../lib/i18n/i18n.tsx';
import { system } from './system.ts';

/** Chakra's components follow the member's language: direction (Arabic right to left), and their own labels' locale. */
export function ChakraRoot({ children }: { children: ReactNode }) {
  const { locale } = useLocale();
  return (
    <ChakraProvider value={system}>
      <LocaleProvider locale={locale}>{children}</LocaleProvider>
    </ChakraProvider>
  );
}
