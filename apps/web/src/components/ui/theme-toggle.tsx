/**
 * Light/dark switch: next-themes stores it under 'theme' and puts the `dark` class on <html>.
 * A plain button in Chakra's ghost icon-button look (components/first-screen): the sign-in
 * screens draw it before Chakra's runtime loads, the dashboard's header after.
 */
import { useTheme } from 'next-themes';
import { useT } from '../../lib/i18n/i18n.tsx';
import { LuMoon, LuSun } from './first-screen-icons.ts';

export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';
  const t = useT();
  return (
    <button
      type="button"
      className="fs-icon-button"
      aria-label={t('shell.theme.toggle')}
      title={isDark ? t('shell.theme.toLight') : t('shell.theme.toDark')}
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
    >
      {isDark ? <LuSun /> : <LuMoon />}
    </button>
  );
}
