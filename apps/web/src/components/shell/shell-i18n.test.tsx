/**
 * The shell and Settings in another language: the header and sidebar in Arabic (right to left,
 * the sidebar's names from the `nav` catalog), Settings in Spanish (its tabs, labels and the member's
 * dates in Spanish, in the device's zone), with the language menu in both places.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFormatters, deviceTimeZone } from '@md/shared';
import { mockMediaQueries } from '@/testing/media.ts';
import { loadPageBeforeTests, memberProfile } from '@/testing/member.ts';
import { testI18n } from '@/testing/i18n.ts';
import { renderApp } from '@/testing/render.tsx';
import { EXTRA_ROUTES, NAV_ITEMS } from './nav-items.ts';
import { routeKey } from './nav-text.ts';

function signedIn(path: string, locale: 'ar' | 'es') {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  const i18n = testI18n(locale);
  renderApp(path, { 'user.view_profile': () => ({ Success: [memberProfile()] }) }, { i18n });
  return i18n.messages as Record<string, string>;
}

loadPageBeforeTests(() => import('@/features/settings/settings.tsx'));

describe('the shell in Arabic', () => {
  it('reads right to left, names the sidebar from the nav catalog and the header in Arabic', async () => {
    const messages = signedIn('/dashboard/settings', 'ar');
    await screen.findByText('لوحة العضو', {}, { timeout: 5000 });
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');

    // The column is shown by CSS from 768 px up (jsdom computes it hidden): found with the hidden ones.
    const nav = document.querySelector<HTMLElement>('nav[aria-label="الرئيسية"]')!;
    const names = [...nav.querySelectorAll('a')].map((link) => link.textContent);
    expect(names).toEqual(
      [...NAV_ITEMS, ...EXTRA_ROUTES].map((item) => messages[`nav.${routeKey(item)}.name`]),
    );
    expect(names).toContain('الإعدادات');
    expect(nav.querySelector('section')).toHaveAccessibleName('المزيد');

    const header = screen.getByRole('banner');
    expect(within(header).getByRole('button', { name: 'تسجيل الخروج' })).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'تبديل المظهر' })).toBeInTheDocument();
    expect(within(header).getByRole('combobox', { name: 'اللغة', hidden: true })).toHaveValue('ar');
    expect(await screen.findByRole('heading', { name: 'الإعدادات', level: 1 })).toBeInTheDocument();
  });
});

describe('Settings in Spanish', () => {
  it('shows its tabs, the profile and the member-since date in Spanish, and the language menu', async () => {
    signedIn('/dashboard/settings', 'es');
    expect(await screen.findByRole('tab', { name: 'Perfil' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Seguridad' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Dirección de billetera' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');

    const profile = screen.getByRole('region', { name: 'Perfil' });
    expect(within(profile).getByText('Miembro desde')).toBeInTheDocument();
    expect(within(profile).getByText('Izquierda')).toBeInTheDocument();
    expect(within(profile).getByText('Inactiva')).toBeInTheDocument();
    // The date in Spanish, in the device's zone with the zone named.
    const since = createFormatters('es', deviceTimeZone()).dateTime('2025-01-01T00:00:00Z');
    expect(since).toMatch(/ene/);
    expect(within(profile).getByText(since)).toBeInTheDocument();

    const preferences = screen.getByRole('region', { name: 'Preferencias' });
    expect(within(preferences).getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    expect(within(preferences).getByTestId('settings-time-zone')).toHaveTextContent(
      /^Las horas se muestran en la zona horaria de este dispositivo/,
    );

    await userEvent.click(screen.getByRole('tab', { name: 'Seguridad' }));
    expect(await screen.findByRole('heading', { name: 'Cambiar contraseña' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Autenticación de dos factores' })).toBeInTheDocument();
  });
});

describe('the avatar menu below 1024 px', () => {
  afterEach(() => vi.restoreAllMocks());

  it('offers the languages and switches the app to the one chosen', async () => {
    // A tablet's width: below the header's own language menu (1024 px), above the phone layout.
    mockMediaQueries((query) => query.includes('1023.98px'));
    signedIn('/dashboard/settings', 'ar');
    // From the keyboard, as the header's other menus are tested.
    (await screen.findByTestId('avatar-menu', {}, { timeout: 5000 })).focus();
    await userEvent.keyboard('{Enter}');
    const spanish = await screen.findByRole('menuitem', { name: 'Español' });
    expect(screen.getByRole('menuitem', { name: 'العربية' })).toHaveAttribute('aria-current', 'true');
    for (let step = 0; step < 10 && !spanish.hasAttribute('data-highlighted'); step++)
      await userEvent.keyboard('{ArrowDown}');
    expect(spanish).toHaveAttribute('data-highlighted');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('tab', { name: 'Perfil' }, { timeout: 5000 })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(localStorage.getItem('language')).toBe('es');
  });
});
