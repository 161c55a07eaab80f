/**
 * The Chakra system with only the recipes this app's components use: `defaultSystem` carries
 * every recipe of the library (about 20 KB gzipped). The first screen (sign-in and what main.tsx
 * renders before any lazy chunk) starts with the recipes it draws; the rest (app-recipes.ts) are
 * added to the same system before any lazily loaded screen renders (`withAppRecipes`). Same
 * tokens, global CSS and conditions as `defaultSystem`, but for the solid fills below. A component
 * whose recipe is missing renders unstyled, so system.test.ts checks every Chakra component the
 * sources import against these lists, and the first screen's against the first list.
 */
import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
// Chakra's theme module by module: the whole theme's module imports every recipe, and what the
// entry imports counts as the first screen's (system.test.ts holds these equal to the theme's).
import { breakpoints } from '@chakra-theme/breakpoints';
import { globalCss } from '@chakra-theme/global-css';
import { layerStyles } from '@chakra-theme/layer-styles';
import { animationStyles } from '@chakra-theme/motion-styles';
import { buttonRecipe } from '@chakra-theme/recipes/button';
import { cardSlotRecipe } from '@chakra-theme/recipes/card';
import { fieldSlotRecipe } from '@chakra-theme/recipes/field';
import { headingRecipe } from '@chakra-theme/recipes/heading';
import { iconRecipe } from '@chakra-theme/recipes/icon';
import { inputRecipe } from '@chakra-theme/recipes/input';
import { inputAddonRecipe } from '@chakra-theme/recipes/input-addon';
import { linkRecipe } from '@chakra-theme/recipes/link';
import { spinnerRecipe } from '@chakra-theme/recipes/spinner';
import { semanticColors } from '@chakra-theme/semantic-tokens/colors';
import { semanticRadii } from '@chakra-theme/semantic-tokens/radii';
import { semanticShadows } from '@chakra-theme/semantic-tokens/shadows';
import { textStyles } from '@chakra-theme/text-styles';
import { animations } from '@chakra-theme/tokens/animations';
import { aspectRatios } from '@chakra-theme/tokens/aspect-ratios';
import { blurs } from '@chakra-theme/tokens/blurs';
import { borders } from '@chakra-theme/tokens/borders';
import { colors } from '@chakra-theme/tokens/colors';
import { cursor } from '@chakra-theme/tokens/cursor';
import { durations } from '@chakra-theme/tokens/durations';
import { easings } from '@chakra-theme/tokens/easings';
import { fontSizes } from '@chakra-theme/tokens/font-sizes';
import { fontWeights } from '@chakra-theme/tokens/font-weights';
import { fonts } from '@chakra-theme/tokens/fonts';
import { keyframes } from '@chakra-theme/tokens/keyframes';
import { letterSpacings } from '@chakra-theme/tokens/letter-spacing';
import { lineHeights } from '@chakra-theme/tokens/line-heights';
import { radii } from '@chakra-theme/tokens/radius';
import { sizes } from '@chakra-theme/tokens/sizes';
import { spacing } from '@chakra-theme/tokens/spacing';
import { zIndices } from '@chakra-theme/tokens/z-indices';

/** Chakra's theme, as its theme module puts it together (tokens, semantic tokens, CSS variables). */
export const theme = {
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  globalCss,
  breakpoints,
  keyframes,
  tokens: {
    aspectRatios,
    animations,
    blurs,
    borders,
    colors,
    durations,
    easings,
    fonts,
    fontSizes,
    fontWeights,
    letterSpacings,
    lineHeights,
    radii,
    spacing,
    sizes,
    zIndex: zIndices,
    cursor,
  },
  semanticTokens: { colors: semanticColors, shadows: semanticShadows, radii: semanticRadii },
  textStyles,
  layerStyles,
  animationStyles,
};

/** The recipes of the first screen's components. */
export const firstScreenRecipes = {
  button: buttonRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  spinner: spinnerRecipe,
};

export const firstScreenSlotRecipes = {
  card: cardSlotRecipe,
  field: fieldSlotRecipe,
};

/**
 * Solid fills under white text at WCAG AA (4.5:1): Chakra's teal, green, cyan and pink solids are
 * their 600 shades (white text 3.3–4.0:1); the 700 shades give 5.0–6.0:1. Orange keeps its dark
 * mode fill, which carries black text.
 */
const shade = (palette: string, light: number, dark: number) => ({
  value: { _light: `{colors.${palette}.${light}}`, _dark: `{colors.${palette}.${dark}}` },
});
const aaSemanticTokens = {
  ...theme.semanticTokens,
  colors: {
    ...semanticColors,
    teal: { ...semanticColors.teal, solid: shade('teal', 700, 700) },
    green: { ...semanticColors.green, solid: shade('green', 700, 700) },
    cyan: { ...semanticColors.cyan, solid: shade('cyan', 700, 700) },
    pink: { ...semanticColors.pink, solid: shade('pink', 700, 700) },
    orange: { ...semanticColors.orange, solid: shade('orange', 700, 500) },
  },
};

export const system = createSystem(
  defaultBaseConfig,
  defineConfig({
    preflight: true,
    cssVarsPrefix: theme.cssVarsPrefix,
    cssVarsRoot: theme.cssVarsRoot,
    globalCss: theme.globalCss,
    theme: {
      breakpoints: theme.breakpoints,
      keyframes: theme.keyframes,
      tokens: theme.tokens,
      semanticTokens: aaSemanticTokens,
      recipes: firstScreenRecipes,
      slotRecipes: firstScreenSlotRecipes,
      textStyles: theme.textStyles,
      layerStyles: theme.layerStyles,
      animationStyles: theme.animationStyles,
    },
  }),
);

let appRecipesAdded: Promise<void> | undefined;

/**
 * Adds the rest of the app's recipes (app-recipes.ts, a chunk of its own) to `system`, once. The
 * system looks recipes up by key when a component first renders, so a component rendered after
 * this resolves is styled; one rendered before would stay unstyled: lazily loaded screens wait
 * for it (`withAppRecipes`).
 */
export function loadAppRecipes(): Promise<void> {
  return (appRecipesAdded ??= import('./app-recipes.ts').then(
    ({ recipes, slotRecipes }) => addRecipes(system, recipes, slotRecipes),
    (error: unknown) => {
      appRecipesAdded = undefined; // a failed load is tried again next time
      throw error;
    },
  ));
}

/** Chakra has no call to add recipes to a system once made: its theme is read at each look-up. */
function addRecipes(target: SystemContext, recipes: object, slotRecipes: object) {
  const config = (target._config.theme ??= {});
  config.recipes = Object.assign(config.recipes ?? {}, recipes);
  config.slotRecipes = Object.assign(config.slotRecipes ?? {}, slotRecipes);
}

/** A lazy module loader that resolves once the module and the app's recipes are both loaded. */
export const withAppRecipes =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), loadAppRecipes()]).then(([module]) => module);
