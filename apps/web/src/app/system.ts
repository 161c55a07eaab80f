/**
 * The Chakra system with only the recipes this app's components use: `defaultSystem` carries
 * every recipe of the library (about 20 KB gzipped), all of it on the sign-in route. Same tokens,
 * global CSS and conditions as `defaultSystem`, but for the solid fills below. A component whose
 * recipe is missing renders unstyled, so system.test.ts checks every Chakra component the sources
 * import against this list.
 */
import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  comboboxSlotRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  semanticTokens,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  timelineSlotRecipe,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

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
 * mode fill, which carries black text.
 */
const shade = (palette: string, light: number, dark: number) => ({
  value: { _light: `{colors.${palette}.${light}}`, _dark: `{colors.${palette}.${dark}}` },
});
const aaSemanticTokens = {
  ...semanticTokens,
  colors: {
    ...semanticTokens.colors,
    teal: { ...semanticTokens.colors?.teal, solid: shade('teal', 700, 700) },
    green: { ...semanticTokens.colors?.green, solid: shade('green', 700, 700) },
    cyan: { ...semanticTokens.colors?.cyan, solid: shade('cyan', 700, 700) },
    pink: { ...semanticTokens.colors?.pink, solid: shade('pink', 700, 700) },
    orange: { ...semanticTokens.colors?.orange, solid: shade('orange', 700, 500) },
  },
};

export const system = createSystem(
  defaultBaseConfig,
  defineConfig({
    preflight: true,
    cssVarsPrefix,
    cssVarsRoot,
    globalCss,
    theme: {
      breakpoints,
      keyframes,
      tokens,
      semanticTokens: aaSemanticTokens,
      recipes,
      slotRecipes,
      textStyles,
      layerStyles,
      animationStyles,
    },
  }),
);
