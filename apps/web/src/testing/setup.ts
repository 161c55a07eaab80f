import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toaster } from '@/lib/toast-store.ts';

// What the app's first-screen classes hide (main.tsx loads them: the sidebar column below md, the
// header's links below lg) is hidden here too. Only the rules that hide: jsdom matches every rule
// of the page for each computed style Testing Library asks for, and the whole sheet made the
// component tests ~20 % slower. Outside media queries, as jsdom applies none of those.
const firstScreenStyle = document.createElement('style');
document.head.append(firstScreenStyle);
const hidingRules = readFileSync(
  join(import.meta.dirname, '../components/first-screen/first-screen.css'),
  'utf8',
)
  .split('\n')
  .filter((line) => !line.startsWith('@') && /display:none|visibility:hidden/.test(line))
  // A line may also close the layer its rule is in.
  .map((line) => line.slice(0, line.indexOf('}') + 1));
for (const rule of hidingRules)
  firstScreenStyle.sheet!.insertRule(rule, firstScreenStyle.sheet!.cssRules.length);

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
