/** A screen of a given size for jsdom: window.matchMedia answers `matches(query)` (vi.restoreAllMocks undoes it). */
import { vi } from 'vitest';

export function mockMediaQueries(matches: (query: string) => boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: matches(query),
        media: query,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}
