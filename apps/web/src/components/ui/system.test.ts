/**
 * The trimmed Chakra system (system.ts) must hold the recipe of every Chakra component the app
 * imports: a missing one renders its component unstyled without any error. The recipe keys are
 * read from Chakra's own component sources (`key: "…"`), following their imports of sibling
 * components (InputGroup renders InputAddon). The first screen (main.tsx and what it imports
 * statically) imports no Chakra at all: it draws with components/first-screen's classes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '@chakra-ui/react';
import * as chakraTheme from '@chakra-ui/react/theme';
import { recipes, slotRecipes, system, theme } from './system.ts';

const chakraComponents = join(
  dirname(createRequire(import.meta.url).resolve('@chakra-ui/react/package.json')),
  'dist/esm/components',
);
const src = join(import.meta.dirname, '../..');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });

/** Component name → its folder in Chakra's dist (named exports and `export * as Name` namespaces). */
function componentFolders(): Map<string, string> {
  const index = readFileSync(join(chakraComponents, 'index.js'), 'utf8');
  const folders = new Map<string, string>();
  const namespaces = new Map(
    [...index.matchAll(/import \* as (\S+) from '\.\/([\w-]+)\//g)].map((m) => [m[1]!, m[2]!]),
  );
  for (const [, names, folder] of index.matchAll(/export \{([^}]*)\} from '\.\/([\w-]+)\//g))
    for (const name of names!.split(','))
      folders.set(
        name
          .trim()
          .split(/\s+as\s+/)
          .pop()!,
        folder!,
      );
  for (const [, names] of index.matchAll(/export \{([^}]*)\};/g))
    for (const part of names!.split(',')) {
      const [local, exported] = part.trim().split(/\s+as\s+/);
      if (local && exported && namespaces.has(local)) folders.set(exported, namespaces.get(local)!);
    }
  return folders;
}

/** Recipe keys a component folder uses, with the sibling folders it imports. */
function recipeKeys(folder: string, seen = new Set<string>()): Set<string> {
  const keys = new Set<string>();
  if (seen.has(folder)) return keys;
  seen.add(folder);
  for (const file of filesUnder(join(chakraComponents, folder)).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(file, 'utf8');
    for (const [, key] of code.matchAll(/key: "(\w+)"/g)) keys.add(key!);
    for (const [, sibling] of code.matchAll(/from '\.\.\/([\w-]+)\//g))
      for (const key of recipeKeys(sibling!, seen)) keys.add(key);
  }
  return keys;
}

const appSources = () => filesUnder(src).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

/**
 * The first screen's modules: main.tsx and what it imports statically, transitively (the app's
 * own files; `import()` and `import type` are not followed).
 */
function firstScreenSources(file = join(src, 'main.tsx'), into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const [, spec] of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)';$/gms)) {
    if (!/^(\.|@\/)/.test(spec!)) continue;
    const path = spec!.startsWith('@/') ? join(src, spec!.slice(2)) : join(dirname(file), spec!);
    firstScreenSources(path, into);
  }
  return into;
}

/** Recipe keys the components named need. */
function recipesOf(components: Set<string>): Set<string> {
  const folders = componentFolders();
  const libraryRecipes = new Set([
    ...Object.keys(defaultConfig.theme?.recipes ?? {}),
    ...Object.keys(defaultConfig.theme?.slotRecipes ?? {}),
  ]);
  const needed = new Set<string>();
  for (const name of components) {
    const folder = folders.get(name);
    if (folder) for (const key of recipeKeys(folder)) if (libraryRecipes.has(key)) needed.add(key);
  }
  return needed;
}

/** Names the app's sources (tests aside) import from '@chakra-ui/react'. */
function importedComponents(files = appSources()): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const [, list] of readFileSync(file, 'utf8').matchAll(
      /import \{([^}]*)\} from '@chakra-ui\/react'/g,
    ))
      for (const part of list!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name && !part.trim().startsWith('type ')) names.add(name);
      }
  }
  return names;
}

describe('trimmed Chakra system', () => {
  it('has the recipe of every Chakra component the app imports', () => {
    const imported = importedComponents();
    const needed = recipesOf(imported);
    // The scan itself works: these are imported today and each has a recipe.
    expect(imported).toContain('Button');
    expect([...needed]).toEqual(expect.arrayContaining(['button', 'toast', 'field', 'inputAddon']));
    const present = new Set([...Object.keys(recipes), ...Object.keys(slotRecipes)]);
    expect([...needed].filter((key) => !present.has(key)).sort()).toEqual([]);
    for (const key of Object.keys(recipes)) expect(system.getRecipe(key)).toBeDefined();
    for (const key of Object.keys(slotRecipes)) expect(system.getSlotRecipe(key)).toBeDefined();
  });

  it('is not on the first screen: nothing main.tsx imports statically imports Chakra', () => {
    const files = firstScreenSources();
    // The walk itself works: sign-in and its form fields are on the first screen, the dashboard is not.
    expect([...files].map((file) => file.slice(src.length + 1))).toEqual(
      expect.arrayContaining([
        'features/auth/sign-in.tsx',
        'components/first-screen/first-screen-fields.tsx',
        'components/form/auth-card.tsx',
      ]),
    );
    expect([...files].some((file) => file.includes('dashboard-layout'))).toBe(false);
    const withChakra = [...files].filter((file) =>
      /from '@chakra-ui\/react/.test(readFileSync(file, 'utf8')),
    );
    expect(withChakra.map((file) => file.slice(src.length + 1))).toEqual([]);
  });

  it('is made of Chakra’s own theme, module by module', () => {
    expect(theme).toEqual({
      cssVarsPrefix: chakraTheme.cssVarsPrefix,
      cssVarsRoot: chakraTheme.cssVarsRoot,
      globalCss: chakraTheme.globalCss,
      breakpoints: chakraTheme.breakpoints,
      keyframes: chakraTheme.keyframes,
      tokens: chakraTheme.tokens,
      semanticTokens: chakraTheme.semanticTokens,
      textStyles: chakraTheme.textStyles,
      layerStyles: chakraTheme.layerStyles,
      animationStyles: chakraTheme.animationStyles,
    });
    for (const [key, recipe] of Object.entries({ ...recipes, ...slotRecipes }))
      expect(recipe).toBe({ ...chakraTheme.recipes, ...chakraTheme.slotRecipes }[key]);
  });
});
