/** The app's providers with a Chakra root inside, for tests that render Chakra components outside the routes. */
import type { ComponentProps } from 'react';
import { AppProviders } from '@/app/providers.tsx';
import { ChakraRoot } from '@/components/ui/chakra-root.tsx';
import { englishI18n } from './i18n.ts';

/** English unless a test passes `i18n` (testing/i18n.ts). */
export function TestProviders({
  children,
  i18n = englishI18n,
  ...props
}: Omit<ComponentProps<typeof AppProviders>, 'i18n'> & {
  i18n?: ComponentProps<typeof AppProviders>['i18n'];
}) {
  return (
    <AppProviders i18n={i18n} {...props}>
      <ChakraRoot>{children}</ChakraRoot>
    </AppProviders>
  );
}
