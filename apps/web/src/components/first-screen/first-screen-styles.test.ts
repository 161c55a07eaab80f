/**
 * first-screen.css is generated (`npm run first-screen:css`) from the app's Chakra system and the
 * class table: it must be what the generator writes today, and every first-screen class the
 * sources use must be in it (a class missing from the table would draw unstyled, silently).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { system } from '../ui/system.ts';
import { FIRST_SCREEN_CLASSES, FIRST_SCREEN_CSS_FILE, firstScreenCss } from './first-screen-styles.ts';

const repo = join(import.meta.dirname, '../../../../..');
const src = join(import.meta.dirname, '../..');
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

describe('the first screen’s stylesheet', () => {
  it('is what `npm run first-screen:css` writes from the system today', () => {
    expect(readFileSync(join(repo, FIRST_SCREEN_CSS_FILE), 'utf8')).toBe(firstScreenCss(system));
  });

  it('carries Chakra’s reset, globals, colour tokens in both modes, and each class with its states', () => {
    const css = firstScreenCss(system);
    expect(css).toContain('@layer reset, base, tokens, recipes;');
    expect(css).toMatch(/--chakra-colors-bg-subtle:/);
    // Semantic tokens switch with the `dark` class next-themes puts on <html>.
    expect(css).toMatch(/\.dark[^{]*\{[^}]*--chakra-colors-bg-subtle:/);
    // The AA teal fill of the app's system, not Chakra's default 600.
    expect(css).toMatch(/--chakra-colors-teal-solid:var\(--chakra-colors-teal-700\)/);
    expect(css).toMatch(/\.fs-button:is\(:disabled/);
    expect(css).toMatch(/\.fs-input:is\(\[data-invalid\]/);
  });

  it('has a rule for every first-screen class the sources use', () => {
    const used = new Set<string>();
    for (const file of filesUnder(src).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f)))
      for (const [, names] of readFileSync(file, 'utf8').matchAll(/className="([^"]*)"/g))
        for (const name of names!.split(/\s+/)) if (name.startsWith('fs-')) used.add(name);
    // The scan itself works.
    expect(used).toContain('fs-button');
    expect([...used].filter((name) => !(name in FIRST_SCREEN_CLASSES)).sort()).toEqual([]);
  });
});
