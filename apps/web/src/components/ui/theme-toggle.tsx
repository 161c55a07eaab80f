/**
 * Light/dark switch: next-themes stores it under 'theme' and puts the `dark` class on <html>.
 * A plain button in Chakra's ghost icon-button look (components/first-screen): the sign-in
 * screens draw it before Chakra's runtime loads, the dashboard's header after.
 */
import { useTheme } from 'next-themes';
import { LuMoon, LuSun } from './first-screen-icons.ts';

export function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';
  return (
    <button
      type="button"
      className="fs-icon-button"
      aria-label="Toggle theme"
      title={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
    >
      {isDark ? <LuSun /> : <LuMoon />}
    </button>
  );
}
