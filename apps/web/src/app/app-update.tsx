/**
 * The service worker's registration and the new-version prompt. A lazy chunk, mounted once the
 * page has loaded and settled (main.tsx): the worker's install downloads the whole build to
 * precache it, which must not compete with the first screen. When a new build is deployed its worker installs and
 * waits; the member sees 'A new version is available — Reload', and Reload lets it take over and
 * reloads the page onto the new build. Nothing reloads under a member's feet without the prompt.
 */
import { Box, Button, Text } from '@chakra-ui/react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { ChakraRoot } from '../components/ui/chakra-root.tsx';
import { useT } from '../lib/i18n/i18n.tsx';

/** A tab left open for days still learns of a new build: the browser checks on navigations only. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export default function AppUpdate() {
  const t = useT();
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    // Once per page: this component lives as long as the app, so the checks are never torn down.
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => void registration.update().catch(() => undefined); // offline: the next check tries again
      setInterval(check, UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && check());
    },
  });
  if (!needRefresh) return null;
  return (
    // Its own Chakra root: the prompt can show over sign-in, which is drawn without Chakra.
    <ChakraRoot>
      {/* role=status: screen readers read the prompt when it appears. */}
      <Box
        role="status"
        data-testid="app-update"
        position="fixed"
        insetX="3"
        bottom={{ base: '16', md: '4' }}
        mx="auto"
        maxW="sm"
        // Above the QA button, below dialogs.
        zIndex="overlay"
        bg="bg.inverted"
        color="fg.inverted"
        borderRadius="l3"
        boxShadow="lg"
        px="4"
        py="3"
      >
        <Text display="flex" alignItems="center" justifyContent="space-between" gap="3" fontSize="sm">
          <span>{t('app.update.available')}</span>
          <Button size="sm" colorPalette="teal" onClick={() => void updateServiceWorker(true)}>
            {t('app.update.reload')}
          </Button>
        </Text>
      </Box>
    </ChakraRoot>
  );
}
