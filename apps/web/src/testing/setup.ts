import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toaster } from '@/lib/toast-store.ts';

// The whole suite runs its projects in parallel on 2 cores: give find*/waitFor room under load.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks a few browser APIs that Chakra (Ark/Zag) and next-themes use.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollTo ??= () => {};

afterEach(() => {
  cleanup();
  // The toaster is a module singleton (max 3 visible): start every test with none.
  toaster.remove();
  localStorage.clear();
  document.documentElement.className = '';
});
