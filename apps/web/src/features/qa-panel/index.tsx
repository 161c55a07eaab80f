/**
 * Where the app mounts the QA panel. This module stays tiny: the panel itself is a separate chunk,
 * fetched only in mock mode when the server announces the 'qa' capability, so members in
 * provider mode (production) never download it.
 */
import { lazy, Suspense } from 'react';
import { hasCapability, useConfig } from '@/lib/config.tsx';

const QaPanel = lazy(() => import('./qa-panel.tsx'));

export function QaPanelMount() {
  const config = useConfig();
  if (config.mode !== 'mock' || !hasCapability(config, 'qa')) return null;
  return (
    <Suspense fallback={null}>
      <QaPanel />
    </Suspense>
  );
}
