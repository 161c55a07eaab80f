/** Light/dark switch: next-themes stores it under 'theme' and puts the `dark` class on <html>. */
import { IconButton, type IconButtonProps } from '@chakra-ui/react';
import { useTheme } from 'next-themes';
import { LuMoon, LuSun } from './first-screen-icons.ts';

export function ThemeToggle(props: Omit<IconButtonProps, 'aria-label'>) {
  const { resolvedTheme, setTheme } = useTheme();
  const isDark = resolvedTheme === 'dark';
  return (
    <IconButton
      aria-label="Toggle theme"
      title={isDark ? 'Switch to light theme' : 'Switch to dark theme'}
      variant="ghost"
      size="sm"
      onClick={() => setTheme(isDark ? 'light' : 'dark')}
      {...props}
    >
      {isDark ? <LuSun /> : <LuMoon />}
    </IconButton>
  );
}
