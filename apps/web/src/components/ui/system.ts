/**
 * The app's Chakra system: Chakra's theme (tokens, semantic tokens, global CSS and conditions, as
 * `defaultSystem` has them, but for the solid fills below) with only the recipes the app's
 * components use (`defaultSystem` carries every recipe of the library, about 20 kB gzipped). A
 * component whose recipe is missing renders unstyled, so system.test.ts checks every Chakra
 * component the sources import against these lists. It loads with the first screen that draws
 * Chakra components (chakra-root.tsx), never with sign-in, which is drawn without Chakra's runtime
 * (components/first-screen).
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  avatarSlotRecipe,
  badgeRecipe,
  buttonRecipe,
  cardSlotRecipe,
  comboboxSlotRecipe,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  timelineSlotRecipe,
  toastSlotRecipe,
} from '@chakra-ui/react/theme';
// Chakra's theme module by module (system.test.ts holds these equal to the theme's): the whole
// theme's object refers to every recipe of the library.
import { breakpoints } from '@chakra-theme/breakpoints';
import { globalCss } from '@chakra-theme/global-css';
import { layerStyles } from '@chakra-theme/layer-styles';
import { animationStyles } from '@chakra-theme/motion-styles';
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

/**
 * The recipes of the Chakra components the app draws: `defaultSystem` carries every recipe of the
 * library. system.test.ts checks every Chakra component the sources import against these lists.
 */
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

export const slotRecipes = {
  accordion: accordionSlotRecipe,
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  combobox: comboboxSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  progress: progressSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  timeline: timelineSlotRecipe,
  toast: toastSlotRecipe,
};

/**
 * Solid fills under white text at WCAG AA (4.5:1): Chakra's teal, green, cyan and pink solids are
 * their 600 shades (white text 3.3–4.0:1); the 700 shades give 5.0–6.0:1. Orange keeps its dark
 * mode fill, which carries black text. Likewise text in the status colours on the light page: a
 * field's error in red 500 is 3.8:1 on white, red 600 4.8:1; warning orange 600 3.6:1 and success
 * green 600 3.3:1, their 700 shades 7.8:1 and 6.8:1 (the dark theme's 300–400 shades pass on black).
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
    fg: {
      ...semanticColors.fg,
      error: shade('red', 600, 400),
      warning: shade('orange', 700, 300),
      success: shade('green', 700, 300),
    },
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
      recipes,
      slotRecipes,
      textStyles: theme.textStyles,
      layerStyles: theme.layerStyles,
      animationStyles: theme.animationStyles,
    },
  }),
);
