/**
 * Chakra's runtime and the app's system (components/ui/chakra-root.tsx) are a chunk of their own,
 * loaded by the first screen drawn with Chakra, never by sign-in. A lazy screen's loader wrapped
 * in `withChakra` fetches it beside the screen's own chunk, not after it.
 */
export const loadChakraRoot = () => import('../components/ui/chakra-root.tsx');

export const withChakra =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), loadChakraRoot()]).then(([module]) => module);
