import { renderToStaticMarkup } from 'react-dom/server';
import * as lucide from 'react-icons/lu';
import { describe, expect, it } from 'vitest';
import * as firstScreen from './first-screen-icons.ts';

describe('the first screen’s icons', () => {
  it('draw exactly what react-icons draws for the same Lucide icons', () => {
    const names = Object.keys(firstScreen) as (keyof typeof firstScreen)[];
    expect(names.length).toBe(6);
    for (const name of names) {
      const Ours = firstScreen[name];
      const Theirs = lucide[name];
      expect(renderToStaticMarkup(<Ours aria-hidden="true" />)).toBe(
        renderToStaticMarkup(<Theirs aria-hidden="true" />),
      );
    }
  });
});
