/**
 * Settings → Notifications → Push notifications on this device (capability `web_push`): turns Web
 * Push on for this browser (the browser's permission, then PushManager.subscribe with the server's
 * VAPID key, then `notification.subscribe_push`) or off (`unsubscribe_push`, then the browser's
 * unsubscribe). It says plainly when the browser lacks push, blocks notifications, refuses the
 * permission, or has no service worker running yet. The app's worker shows what arrives
 * (public/push-sw.js).
 */
import { useEffect, useState } from 'react';
import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '@/lib/errors.ts';
import { recordOf } from '@/lib/guards.ts';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { notify } from '@/lib/toaster.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';

/** How long to wait for the app's service worker before saying it is not running. */
const WORKER_WAIT_MS = 3_000;

/** Whether this browser has what Web Push needs. */
export const pushSupported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/** The app's service worker registration, or null when none is running in time. */
async function workerRegistration(): Promise<ServiceWorkerRegistration | null> {
  const existing = await navigator.serviceWorker.getRegistration();
  if (existing?.active) return existing;
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<null>((done) => setTimeout(() => done(null), WORKER_WAIT_MS)),
  ]);
}

/** A base64url key (the VAPID public key) as the bytes PushManager.subscribe takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

type Problem = { id: MessageId; reason?: string };

export function PushDevice() {
  const t = useT();
  const messageText = useMessageText();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const supported = pushSupported();
  const keyOptions = trpc['notification.view_push_key'].queryOptions({});
  const key = useQuery({ ...keyOptions, enabled: supported, retry: false });
  const devices = recordOf(recordOf(key.data)?.Success)?.Devices;
  const [subscribed, setSubscribed] = useState<boolean>();
  const [problem, setProblem] = useState<Problem | undefined>(
    supported ? undefined : { id: 'push.device.unsupported' },
  );
  const [busy, setBusy] = useState(false);

  // Whether this browser is subscribed already (and whether it blocks notifications).
  useEffect(() => {
    if (!supported) return;
    if (Notification.permission === 'denied') setProblem({ id: 'push.device.blocked' });
    let live = true;
    void navigator.serviceWorker
      .getRegistration()
      .then((registration) => registration?.pushManager.getSubscription())
      .then((subscription) => live && setSubscribed(!!subscription))
      .catch(() => live && setSubscribed(false));
    return () => {
      live = false;
    };
  }, [supported]);

  const setDevices = (count: unknown) =>
    queryClient.setQueryData(keyOptions.queryKey, (old: unknown) => {
      const success = recordOf(recordOf(old)?.Success);
      return success ? ({ Success: { ...success, Devices: count } } as never) : (old as never);
    });

  const turnOn = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted')
        return setProblem({ id: permission === 'denied' ? 'push.device.blocked' : 'push.device.refused' });
      const registration = await workerRegistration();
      if (!registration) return setProblem({ id: 'push.device.noWorker' });
      let publicKey: string;
      try {
        publicKey = String(
          recordOf(recordOf(await client['notification.view_push_key'].query({}))?.Success)?.Public_Key ?? '',
        );
      } catch (failure) {
        return setProblem({ id: 'push.device.serverFailed', reason: messageText(errorMessage(failure, '')) });
      }
      const applicationServerKey = keyBytes(publicKey);
      let subscription: PushSubscription;
      try {
        // A subscription made with another key (another server, another QA world) cannot be reused.
        const existing = await registration.pushManager.getSubscription();
        if (existing && !sameBytes(existing.options.applicationServerKey, applicationServerKey))
          await existing.unsubscribe();
        subscription = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey,
        });
      } catch (failure) {
        return setProblem({
          id: 'push.device.failed',
          reason: failure instanceof Error ? failure.message : String(failure),
        });
      }
      const json = subscription.toJSON();
      try {
        const answer = await client['notification.subscribe_push'].mutate({
          endpoint: json.endpoint ?? subscription.endpoint,
          keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
          expirationTime: json.expirationTime ?? null,
        });
        setDevices(answer.Devices);
      } catch (failure) {
        // Not known to the server: the browser keeps no subscription that receives nothing.
        await subscription.unsubscribe().catch(() => undefined);
        return setProblem({ id: 'push.device.serverFailed', reason: messageText(errorMessage(failure, '')) });
      }
      setSubscribed(true);
      notify.success(t('push.device.turnedOn'));
    } finally {
      setBusy(false);
    }
  };

  const turnOff = async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      const registration = await navigator.serviceWorker.getRegistration();
      const subscription = await registration?.pushManager.getSubscription();
      if (subscription) {
        const answer = await client['notification.unsubscribe_push'].mutate({
          endpoint: subscription.endpoint,
        });
        setDevices(answer.Devices);
        await subscription.unsubscribe();
      }
      setSubscribed(false);
      notify.success(t('push.device.turnedOff'));
    } catch (failure) {
      notify.error(messageText(errorMessage(failure, t('push.prefs.saveFailed'))));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box data-testid="push-device" borderBottomWidth="1px" pb="4" mb="1">
      <Stack gap="2">
        <Text fontWeight="semibold">{t('push.device.title')}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t('push.device.about')}
        </Text>
        {supported && subscribed !== undefined && (
          <Text fontSize="sm" data-testid="push-device-state">
            {t(subscribed ? 'push.device.on' : 'push.device.off')}
            {typeof devices === 'number' && <> {t('push.device.count', { count: devices })}</>}
          </Text>
        )}
        {problem && (
          <Text fontSize="sm" color="red.fg" role="status" data-testid="push-device-problem">
            {t(problem.id, problem.reason === undefined ? undefined : { reason: problem.reason })}
          </Text>
        )}
        {supported && (
          <HStack>
            {subscribed ? (
              <Button size="sm" variant="outline" loading={busy} onClick={() => void turnOff()}>
                {t('push.device.turnOff')}
              </Button>
            ) : (
              <Button size="sm" colorPalette="teal" loading={busy} onClick={() => void turnOn()}>
                {t('push.device.turnOn')}
              </Button>
            )}
          </HStack>
        )}
      </Stack>
    </Box>
  );
}
