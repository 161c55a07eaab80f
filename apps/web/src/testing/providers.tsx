/** The app's providers with a Chakra root inside, for tests that render Chakra components outside the routes. */
import type { ComponentProps } from 'react';
import { AppProviders } from '@/app/providers.tsx';
import { ChakraRoot } from '@/components/ui/chakra-root.tsx';

export function TestProviders({ children, ...props }: ComponentProps<typeof AppProviders>) {
  return (
    <AppProviders {...props}>
      <ChakraRoot>{children}</ChakraRoot>
    </AppProviders>
  );
}
