import { useEffect, useState } from 'react';
import { Portal, Spinner, Stack, Text, Toast, Toaster as ChakraToaster } from '@chakra-ui/react';
import { TOAST_DEFAULTS } from '@md/shared';
import { useMessageText, useT } from '../../lib/i18n/i18n.tsx';
import { toaster } from '../../lib/toast-store.ts';
import { ChakraRoot } from './chakra-root.tsx';
import { toastViewMounted } from '../../lib/toaster.ts';

const detailsOf = (meta: Record<string, unknown> | undefined): string[] =>
  Array.isArray(meta?.details) ? meta.details.map(String) : [];

/**
 * The calls' own messages a shared toast carries (lib/toaster.ts, server unreachable). Zag measures
 * a toast's height when it mounts and watches it only from the next frame: lines added in between
 * would be cut off, so two frames after a change an empty marker is swapped, a change it measures.
 */
function ToastDetails({ details }: { details: string[] }) {
  const [measuredAt, setMeasuredAt] = useState(0);
  useEffect(() => {
    let inner = 0;
    const outer = requestAnimationFrame(() => {
      inner = requestAnimationFrame(() => setMeasuredAt(details.length));
    });
    return () => {
      cancelAnimationFrame(outer);
      cancelAnimationFrame(inner);
    };
  }, [details.length]);
  return (
    <Stack as="ul" gap="0" listStyleType="none" data-testid="toast-details">
      {details.map((detail) => (
        <Text as="li" key={detail} textStyle="sm" opacity="0.9">
          {detail}
        </Text>
      ))}
      <li hidden key={`marker-${measuredAt}`} />
    </Stack>
  );
}

export function Toaster() {
  useEffect(toastViewMounted, []);
  // The toasts' region and close buttons, named in the member's language (the library's are English).
  const t = useT();
  // A toast asked for outside a screen (a lib module, the provider's own words) says a spec message
  // in English: shown in the member's language when it is one the catalogs know, else as sent.
  const messageText = useMessageText();
  return (
    // Its own Chakra root: toasts show over sign-in too, which is drawn without Chakra.
    <ChakraRoot>
      <Portal>
        <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }} aria-label={t('shell.toast.region')}>
          {(toast) => (
            <Toast.Root width={{ md: `${TOAST_DEFAULTS.width}px` }}>
              {toast.type === 'loading' ? <Spinner size="sm" color="blue.solid" /> : <Toast.Indicator />}
              <Stack gap="1" flex="1" maxWidth="100%">
                {toast.title && (
                  <Toast.Title>
                    {typeof toast.title === 'string' ? messageText(toast.title) : toast.title}
                  </Toast.Title>
                )}
                {toast.description && (
                  <Toast.Description>
                    {typeof toast.description === 'string'
                      ? messageText(toast.description)
                      : toast.description}
                  </Toast.Description>
                )}
                {detailsOf(toast.meta).length > 0 && <ToastDetails details={detailsOf(toast.meta)} />}
              </Stack>
              {toast.closable && <Toast.CloseTrigger aria-label={t('shell.toast.dismiss')} />}
            </Toast.Root>
          )}
        </ChakraToaster>
      </Portal>
    </ChakraRoot>
  );
}
