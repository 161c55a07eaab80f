import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { I18nProvider } from '@/lib/i18n/i18n.tsx';
import { englishI18n } from '@/testing/i18n.ts';
import { ThemeProvider } from './theme-provider.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

const renderToggle = () =>
  render(
    <I18nProvider initial={englishI18n}>
      <ChakraProvider value={defaultSystem}>
        <ThemeProvider>
          <ThemeToggle />
        </ThemeProvider>
      </ChakraProvider>
    </I18nProvider>,
  );

describe('theme toggle', () => {
  it('flips the theme, stores it under "theme" and sets the dark class on <html>', async () => {
    localStorage.setItem('theme', 'light');
    renderToggle();
    const toggle = screen.getByRole('button', { name: 'Toggle theme' });
    await waitFor(() => expect(document.documentElement).not.toHaveClass('dark'));
    await userEvent.click(toggle);
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
    expect(localStorage.getItem('theme')).toBe('dark');
    await userEvent.click(toggle);
    await waitFor(() => expect(document.documentElement).not.toHaveClass('dark'));
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('starts from the stored theme', async () => {
    localStorage.setItem('theme', 'dark');
    renderToggle();
    await waitFor(() => expect(document.documentElement).toHaveClass('dark'));
  });
});
