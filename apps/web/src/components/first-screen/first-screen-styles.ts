/**
 * The first screen's stylesheet, made from the app's Chakra system (ui/system.ts): Chakra's reset,
 * global CSS and token variables as its runtime inserts them, then one class per element the
 * first screen draws, each from the Chakra recipe and style props the same element has on the
 * other screens. Sign-in so looks like the rest of the app without loading Chakra's runtime (about
 * 45 kB gzipped of script); when the runtime loads later (a toast, the next screen) it inserts the
 * same reset, globals and variables, so nothing on the page moves. The dashboard's frame is drawn
 * with these classes too: resolving its style props at run time was the largest render of a
 * dashboard load on a phone, repeated on every screen.
 *
 * first-screen.css is this module's output, committed: `npm run first-screen:css` writes it and
 * first-screen-styles.test.ts fails when it is stale. Never imported by the app itself.
 */
import type { SystemContext, SystemStyleObject } from '@chakra-ui/react';
import { serializeStyles } from '@emotion/serialize';
import { compile, serialize, stringify } from 'stylis';
import { SIDEBAR_WIDTH } from '@md/shared';

export const FIRST_SCREEN_CSS_FILE = 'apps/web/src/components/first-screen/first-screen.css';

interface ClassStyle {
  /** A recipe and its variant props (Chakra's `recipe` layer). */
  recipe?: [key: string, variants: Record<string, string>];
  /** A slot recipe, its variant props and the slot (Chakra's `recipe` layer). */
  slot?: [key: string, variants: Record<string, string>, slot: string];
  /** Style props, as on a Chakra element (unlayered, so they win over the recipe). */
  css?: SystemStyleObject;
}

/** SimpleGrid's columns ({ base, lg }) and gap: equal columns that never overflow their track. */
const simpleGrid = (base: number, lg: number, gap: string): SystemStyleObject => ({
  display: 'grid',
  gridTemplateColumns:
    base === lg
      ? `repeat(${base}, minmax(0, 1fr))`
      : { base: `repeat(${base}, minmax(0, 1fr))`, lg: `repeat(${lg}, minmax(0, 1fr))` },
  gap,
});

/** A class of the first screen → the Chakra styles it stands for. */
export const FIRST_SCREEN_CLASSES: Record<string, ClassStyle> = {
  // AuthCard: a centred card on the subtle background, the language menu and theme toggle above it.
  'fs-frame': {
    css: {
      display: 'flex',
      minH: '100dvh',
      flexDirection: 'column',
      alignItems: 'center',
      px: '4',
      pt: '4',
      pb: '10',
      bg: 'bg.subtle',
    },
  },
  'fs-frame-top': { css: { alignSelf: 'flex-end', display: 'flex', alignItems: 'center', gap: '2' } },
  'fs-card': {
    slot: ['card', { variant: 'elevated' }, 'root'],
    css: { width: 'full', maxW: 'md', my: 'auto' },
  },
  'fs-card-header': { slot: ['card', { variant: 'elevated' }, 'header'] },
  'fs-card-body': { slot: ['card', { variant: 'elevated' }, 'body'] },
  'fs-card-footer': {
    slot: ['card', { variant: 'elevated' }, 'footer'],
    css: { justifyContent: 'center', flexWrap: 'wrap', gap: '4' },
  },
  'fs-heading': { recipe: ['heading', { size: '2xl' }] },
  // Text: muted, small, centred.
  'fs-muted': { css: { color: 'fg.muted' } },
  'fs-small': { css: { fontSize: 'sm' } },
  'fs-centre': { css: { textAlign: 'center' } },
  // Stack gap="4", and HStack justify="space-between" (Chakra's stacks: flex with a 0.5rem gap).
  'fs-stack': { css: { display: 'flex', flexDirection: 'column', gap: '4' } },
  'fs-row': {
    css: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      flexWrap: 'wrap',
      gap: '0.5rem',
      fontSize: 'sm',
    },
  },
  // Button colorPalette="teal" width="full"; the QA button (purple, small, round, floating).
  'fs-button': {
    recipe: ['button', { variant: 'solid', size: 'md' }],
    css: { colorPalette: 'teal', width: 'full' },
  },
  // Button variant="outline" colorPalette="teal" width="full": a second action beside fs-button.
  'fs-button-outline': {
    recipe: ['button', { variant: 'outline', size: 'md' }],
    css: { colorPalette: 'teal', width: 'full' },
  },
  'fs-qa-button': {
    recipe: ['button', { variant: 'solid', size: 'sm' }],
    css: {
      colorPalette: 'purple',
      position: 'fixed',
      bottom: { base: '3', md: '4' },
      insetEnd: { base: '3', md: '4' },
      // Above the page and its sticky header, below dialogs and toasts.
      zIndex: 'banner',
      borderRadius: 'full',
      boxShadow: 'lg',
    },
  },
  // The QA world's badge (features/qa-panel/world-badge.tsx), on every page of a world: its name cut
  // to fit, then the way out. On a phone at the start corner, opposite the QA button; from md up
  // (where the sidebar takes the start side) just before the QA button.
  'fs-world-badge': {
    recipe: ['badge', { variant: 'surface', size: 'lg' }],
    css: {
      colorPalette: 'orange',
      position: 'fixed',
      bottom: { base: '3', md: '4' },
      insetStart: { base: '3', md: 'auto' },
      insetEnd: { md: '6.5rem' },
      zIndex: 'banner',
      borderRadius: 'full',
      boxShadow: 'md',
      gap: '2',
      px: '3',
      minH: '9',
      // The QA button (about 5 rem and its offset) keeps its corner.
      maxW: { base: 'calc(100vw - 8rem)', md: '24rem' },
    },
  },
  'fs-world-badge-name': { css: { truncate: true, minW: '0' } },
  'fs-world-badge-leave': {
    recipe: ['link', {}],
    css: { colorPalette: 'orange', color: 'colorPalette.fg', fontWeight: 'semibold', flexShrink: '0' },
  },
  // IconButton variant="ghost": the theme toggle (sm) and the password's show/hide (xs, pulled in).
  'fs-icon-button': { recipe: ['button', { variant: 'ghost', size: 'sm' }], css: { px: '0' } },
  'fs-icon-button-xs': {
    recipe: ['button', { variant: 'ghost', size: 'xs' }],
    css: { px: '0', me: '-2' },
  },
  // AppLink: a router link in the link recipe, teal and medium.
  'fs-link': {
    recipe: ['link', {}],
    css: { colorPalette: 'teal', color: 'colorPalette.fg', fontWeight: 'medium' },
  },
  // Field.Root, its label, required mark, helper and error, and the input (outline, md).
  'fs-field': { slot: ['field', {}, 'root'] },
  'fs-field-label': { slot: ['field', {}, 'label'] },
  'fs-field-required': { slot: ['field', {}, 'requiredIndicator'] },
  'fs-field-error': { slot: ['field', {}, 'errorText'] },
  'fs-input': { recipe: ['input', { variant: 'outline', size: 'md' }] },
  // An OTP code's digits spaced out.
  'fs-input-code': { css: { letterSpacing: '0.3em' } },
  // InputGroup with an end element (InputElement placement="end"); the input leaves it room.
  'fs-input-group': {
    css: { display: 'inline-flex', isolation: 'isolate', position: 'relative', width: 'full' },
  },
  'fs-input-with-end': { css: { pe: 'calc(var(--input-height) - 0px)' } },
  'fs-input-end': {
    css: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      position: 'absolute',
      zIndex: 2,
      color: 'fg.muted',
      height: 'full',
      fontSize: 'sm',
      px: '3',
      insetInlineEnd: '0',
      top: '0',
    },
  },
  // The dashboard's frame (components/shell): drawn on every dashboard screen and again on each
  // navigation, so it costs no style resolution at run time. Its menus' and drawer's contents are
  // Chakra's, mounted when opened.
  'fs-shell': { css: { display: 'flex', minH: '100dvh', bg: 'bg.subtle' } },
  'fs-shell-column': { css: { display: 'flex', flexDirection: 'column', flex: '1', minW: '0' } },
  'fs-shell-main': {
    css: {
      flex: '1',
      px: { base: '4', md: '6' },
      py: { base: '5', md: '8' },
      maxW: '7xl',
      width: 'full',
      mx: 'auto',
    },
  },
  'fs-sidebar': {
    css: {
      display: { base: 'none', md: 'block' },
      width: SIDEBAR_WIDTH,
      flexShrink: 0,
      borderEndWidth: '1px',
      bg: 'bg.panel',
      position: 'sticky',
      top: '0',
      height: '100dvh',
      overflowY: 'auto',
      px: '3',
      pb: '6',
    },
  },
  // Heading as="p" size="md" in teal: the brand atop the sidebar and the drawer.
  'fs-brand': { recipe: ['heading', { size: 'md' }], css: { px: '3', py: '4', color: 'teal.fg' } },
  'fs-nav': { css: { display: 'flex', flexDirection: 'column', gap: '4' } },
  'fs-nav-list': {
    css: { display: 'flex', flexDirection: 'column', gap: '1', listStyleType: 'none', p: '0', m: '0' },
  },
  // A sidebar link; the router marks the current page's with aria-current="page".
  'fs-nav-link': {
    css: {
      display: 'flex',
      alignItems: 'center',
      gap: '3',
      px: '3',
      py: '2',
      rounded: 'md',
      fontWeight: 'medium',
      color: 'fg',
      _hover: { bg: 'bg.muted' },
      '&[aria-current=page]': {
        fontWeight: 'semibold',
        bg: 'teal.subtle',
        color: 'teal.fg',
        _hover: { bg: 'teal.subtle' },
      },
    },
  },
  // Icon boxSize="4".
  'fs-nav-icon': { recipe: ['icon', {}], css: { boxSize: '4' } },
  'fs-nav-group-label': {
    css: {
      px: '3',
      pb: '1',
      fontSize: 'xs',
      fontWeight: 'semibold',
      textTransform: 'uppercase',
      letterSpacing: 'wider',
      color: 'fg.muted',
    },
  },
  'fs-header': {
    css: {
      display: 'flex',
      alignItems: 'center',
      gap: { base: '1', sm: '2', md: '4' },
      px: { base: '2', sm: '3', md: '6' },
      py: '3',
      borderBottomWidth: '1px',
      bg: 'bg.panel',
      position: 'sticky',
      top: '0',
      zIndex: 'sticky',
    },
  },
  'fs-grow': { css: { flex: '1', minW: '0' } },
  // What shows from one width on or below it only (Chakra's md and lg).
  'fs-below-md': { css: { display: { base: 'inline-flex', md: 'none' } } },
  'fs-from-lg': { css: { display: { base: 'none', lg: 'flex' }, alignItems: 'center', gap: '2' } },
  'fs-below-lg': { css: { display: { base: 'block', lg: 'none' } } },
  // Button size="sm" variant="outline" (the referral links).
  'fs-button-outline-sm': { recipe: ['button', { variant: 'outline', size: 'sm' }] },
  // The avatar menu's trigger: a ghost button around the initial and the member's name and email.
  'fs-account-button': {
    recipe: ['button', { variant: 'ghost', size: 'sm' }],
    css: { px: '1', minW: '0', height: 'auto', py: '1' },
  },
  'fs-account': { css: { display: 'flex', alignItems: 'center', gap: '3', minW: '0' } },
  // Avatar size="sm" colorPalette="teal" with its initial.
  'fs-avatar': {
    slot: ['avatar', { size: 'sm', variant: 'subtle', shape: 'full' }, 'root'],
    css: { colorPalette: 'teal' },
  },
  'fs-avatar-initial': { slot: ['avatar', { size: 'sm', variant: 'subtle', shape: 'full' }, 'fallback'] },
  // The name and email: read out only on a phone, where the balance needs the room.
  'fs-account-names': {
    css: {
      display: 'flex',
      flexDirection: 'column',
      minW: '0',
      textAlign: 'start',
      srOnly: { base: true, sm: false },
    },
  },
  'fs-account-name': { css: { fontWeight: 'semibold', truncate: true } },
  'fs-account-email': {
    css: {
      fontSize: 'xs',
      color: 'fg.muted',
      truncate: true,
      maxW: { base: '8rem', md: '14rem' },
      fontWeight: 'normal',
    },
  },
  // A page's heading (components/page-header.tsx), on every dashboard screen.
  'fs-page-header': { css: { mb: '6' } },
  'fs-page-title': { recipe: ['heading', { size: 'xl' }], css: { textStyle: { md: '2xl' } } },
  'fs-page-description': { css: { color: 'fg.muted', mt: '1' } },
  // StatCard (components/stat-card.tsx): Card size="sm" variant="outline" around a Stat.
  'fs-stat-card': { slot: ['card', { size: 'sm', variant: 'outline' }, 'root'] },
  'fs-stat-card-body': {
    slot: ['card', { size: 'sm', variant: 'outline' }, 'body'],
    css: { containerType: 'inline-size' },
  },
  'fs-stat': { slot: ['stat', { size: 'md' }, 'root'] },
  'fs-stat-label': { slot: ['stat', { size: 'md' }, 'label'] },
  'fs-stat-value': {
    slot: ['stat', { size: 'md' }, 'valueText'],
    css: {
      fontSize: { base: 'clamp(1rem, 12cqi, 1.25rem)', md: 'clamp(1rem, 12cqi, 1.5rem)' },
      overflowWrap: 'anywhere',
    },
  },
  'fs-stat-help': { slot: ['stat', { size: 'md' }, 'helpText'] },
  // Skeleton (pulse) where a card's figure will be.
  'fs-stat-skeleton': {
    recipe: ['skeleton', { loading: 'true', variant: 'pulse' }],
    css: { height: '7', width: '80%', my: '0.5' },
  },
  // The home (features/dashboard-home): its column of sections, each titled, and their grids.
  'fs-home': { css: { display: 'flex', flexDirection: 'column', gap: '8' } },
  'fs-section-head': { css: { display: 'flex', alignItems: 'center', gap: '3', mb: '3', flexWrap: 'wrap' } },
  'fs-section-title': { recipe: ['heading', { size: 'lg' }] },
  // SimpleGrid columns={{ base: 2, lg: 4 }} gap="4": the figure cards.
  'fs-card-grid': { css: simpleGrid(2, 4, '4') },
  // The team glance (features/dashboard-home/team-glance.tsx): the next run's card beside the team's
  // from lg (SimpleGrid columns={{ base: 1, lg: 3 }} gap="6"), each a small outline card.
  'fs-glance': { css: { ...simpleGrid(1, 3, '6'), alignItems: 'start' } },
  'fs-glance-run': { css: { gridColumn: { lg: '3' }, gridRow: { lg: '1' }, minW: '0' } },
  'fs-glance-team': { css: { gridColumn: { lg: '1 / span 2' }, gridRow: { lg: '1' }, minW: '0' } },
  'fs-card-sm': { slot: ['card', { size: 'sm', variant: 'outline' }, 'root'] },
  'fs-card-sm-body': { slot: ['card', { size: 'sm', variant: 'outline' }, 'body'] },
  'fs-card-title': { recipe: ['heading', { size: 'sm' }], css: { mb: '2' } },
  'fs-stack-1': { css: { display: 'flex', flexDirection: 'column', gap: '1' } },
  'fs-stack-2': { css: { display: 'flex', flexDirection: 'column', gap: '2' } },
  'fs-pair-grid': { css: simpleGrid(2, 2, '4') },
  // A label and its figure on one line (HStack justify="space-between").
  'fs-spread': { css: { display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'space-between' } },
  'fs-strong': { css: { fontWeight: 'semibold' } },
  'fs-flush': { css: { m: '0', p: '0', listStyleType: 'none' } },
  'fs-full': { css: { width: 'full' } },
  'fs-direct': {
    css: {
      display: 'flex',
      flexWrap: 'wrap',
      columnGap: '3',
      rowGap: '0',
      alignItems: 'baseline',
      borderBottomWidth: '1px',
      pb: '2',
    },
  },
  'fs-direct-name': { css: { fontWeight: 'semibold', flex: '1', minW: '8rem', truncate: true } },
  // Badge variant="subtle" (size sm), teal or gray.
  'fs-badge-teal': { recipe: ['badge', { variant: 'subtle', size: 'sm' }], css: { colorPalette: 'teal' } },
  'fs-badge-gray': { recipe: ['badge', { variant: 'subtle', size: 'sm' }], css: { colorPalette: 'gray' } },
  'fs-directs-more': {
    css: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      flexWrap: 'wrap',
      gap: '2',
      mt: '3',
    },
  },
  // Button size="sm" variant="outline" colorPalette="teal".
  'fs-button-outline-sm-teal': {
    recipe: ['button', { variant: 'outline', size: 'sm' }],
    css: { colorPalette: 'teal' },
  },
  'fs-countdown': { css: { fontSize: { base: 'xl', md: '2xl' }, fontWeight: 'semibold' } },
  // Skeletons (pulse) of a card's parts: the team's numbers, the countdown, the carry.
  'fs-skeleton': { recipe: ['skeleton', { loading: 'true', variant: 'pulse' }] },
  'fs-skeleton-team': { css: { height: '10rem' } },
  'fs-skeleton-line': { css: { height: '2rem' } },
  'fs-skeleton-short': { css: { height: '1.5rem' } },
  // The home's lower sections: latest activity and the summary side by side from lg, each an
  // outline card (size md).
  'fs-halves': { css: simpleGrid(1, 2, '6') },
  'fs-halves-narrow': { css: simpleGrid(1, 2, '4') },
  'fs-card-md': { slot: ['card', { size: 'md', variant: 'outline' }, 'root'] },
  'fs-card-md-body': { slot: ['card', { size: 'md', variant: 'outline' }, 'body'] },
  'fs-stack-3': { css: { display: 'flex', flexDirection: 'column', gap: '3' } },
  'fs-activity-item': { css: { pb: '2', '&:not(:last-child)': { borderBottomWidth: '1px' } } },
  'fs-spread-row': { css: { display: 'flex', justifyContent: 'space-between' } },
  'fs-summary-target': { css: { mt: '2' } },
  'fs-summary-target-label': { css: { textStyle: 'sm', fontWeight: 'medium' } },
  // A fixed 0 % bar (not a progress machine): Chakra's progress track's look.
  'fs-summary-bar': { css: { mt: '1.5', h: '2', borderRadius: 'l1', bg: 'bg.muted' } },
  'fs-skeleton-figure': { css: { display: 'inline-block', h: '1em', w: '3ch' } },
  // FullScreenSpinner: Spinner size="xl" in teal, centred on the screen.
  'fs-centre-screen': {
    css: { display: 'flex', alignItems: 'center', justifyContent: 'center', minH: '100dvh' },
  },
  'fs-spinner': {
    recipe: ['spinner', { size: 'xl' }],
    css: { color: 'teal.solid', borderWidth: '3px' },
  },
  // The header's bell: a ghost icon button with its unread count floating at its top end (Float
  // placement="top-end" offset="1.5", Badge size="xs" variant="solid" colorPalette="red").
  'fs-bell': { recipe: ['button', { variant: 'ghost', size: 'sm' }], css: { px: '0', position: 'relative' } },
  'fs-bell-count': {
    recipe: ['badge', { variant: 'solid', size: 'xs' }],
    css: {
      colorPalette: 'red',
      borderRadius: 'full',
      minW: '4',
      justifyContent: 'center',
      px: '1',
      position: 'absolute',
      insetBlockStart: '1.5',
      insetEnd: '1.5',
      translate: '50% -50%',
      _rtl: { translate: '-50% -50%' },
    },
  },
  // A failed read: the muted word and Retry (Button size="xs" variant="outline"), wrapping as an HStack.
  'fs-unavailable': { css: { display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' } },
  'fs-unavailable-word': { css: { color: 'fg.muted', fontSize: 'md', fontWeight: 'normal' } },
  'fs-unavailable-word-sm': { css: { color: 'fg.muted', fontSize: 'sm', fontWeight: 'normal' } },
  'fs-retry': { recipe: ['button', { variant: 'outline', size: 'xs' }] },
  // A button's loading state (Chakra's Loader): the spinner centred over its hidden label.
  'fs-loading-spinner': {
    recipe: ['spinner', { size: 'inherit' }],
    css: { borderWidth: '0.125em', color: 'inherit' },
  },
  'fs-loading-centre': {
    css: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      position: 'absolute',
      top: '50%',
      insetStart: '50%',
      translate: '-50% -50%',
      _rtl: { translate: '50% -50%' },
    },
  },
  'fs-loading-label': { css: { visibility: 'hidden', display: 'contents' } },
  // "as of 10:42" beside a figure that is not current.
  'fs-as-of': { css: { display: 'block', textStyle: 'xs', fontWeight: 'medium', color: 'orange.fg' } },
  // The next step for a member without a package or a team: a subtle card, a teal button or two.
  'fs-next-step': { slot: ['card', { variant: 'subtle' }, 'root'] },
  'fs-next-step-body': { slot: ['card', { variant: 'subtle' }, 'body'], css: { gap: '3' } },
  'fs-next-step-button': {
    recipe: ['button', { variant: 'solid', size: 'md' }],
    css: { colorPalette: 'teal', alignSelf: 'flex-start' },
  },
  'fs-next-step-button-outline': {
    recipe: ['button', { variant: 'outline', size: 'md' }],
    css: { colorPalette: 'teal' },
  },
  'fs-next-step-actions': { css: { display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' } },
};

/** One rule set, scoped to `selector`, from a Chakra CSS object (nested conditions and layers). */
const rule = (selector: string, cssObject: object) =>
  serialize(compile(`${selector}{${serializeStyles([cssObject as never]).styles}}`), stringify);

/** The global rules Chakra's runtime inserts (reset, base, token variables). */
const globalRules = (system: SystemContext) =>
  system._global.map((styles) => serialize(compile(serializeStyles([styles as never]).styles), stringify));

/** The stylesheet: layer order, reset, globals, tokens, then the classes. One rule per line. */
export function firstScreenCss(system: SystemContext): string {
  const classes = Object.entries(FIRST_SCREEN_CLASSES).flatMap(([name, style]) => {
    const parts: object[] = [];
    if (style.recipe) parts.push(system.getRecipeFn(style.recipe[0])(style.recipe[1]));
    if (style.slot) {
      const [key, variants, slot] = style.slot;
      parts.push((system.getSlotRecipeFn(key)(variants) as Record<string, object>)[slot]!);
    }
    if (style.css) parts.push(system.css(style.css));
    return parts.length === 0 ? [] : parts.map((part) => rule(`.${name}`, part));
  });
  const body = [system.layers.atRule, ...globalRules(system), ...classes].join('');
  return `/* Generated by \`npm run first-screen:css\` from first-screen-styles.ts: do not edit. */\n${body.replace(/\}(?=[^}])/g, '}\n')}\n`;
}
