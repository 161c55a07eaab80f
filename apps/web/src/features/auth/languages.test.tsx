/** The sign-in screens in the member's language: Spanish, Arabic (right to left), and the switch between. */
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TEXT_MAX } from '@md/shared';
import { testI18n } from '@/testing/i18n.ts';
import { renderApp } from '@/testing/render.tsx';

const noTotp = { 'user.view_country': () => ({ Success: false }) };

describe('the sign-in screens in other languages', () => {
  it('signs in in Spanish: labels, the spec’s validation messages and the form error toast', async () => {
    renderApp('/', noTotp, { i18n: testI18n('es') });
    expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
    expect(screen.getByTestId('language-select')).toHaveValue('es');
    expect(screen.getByRole('link', { name: 'Crea una cuenta' })).toHaveAttribute('href', '/register');
    await userEvent.type(screen.getByLabelText('Nombre de usuario'), 'a'.repeat(TEXT_MAX.username + 1));
    await userEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(
      await screen.findByText('El nombre de usuario debe tener como máximo 30 caracteres'),
    ).toBeInTheDocument();
    expect(screen.getByText('La contraseña es obligatoria')).toBeInTheDocument();
    expect(await screen.findByText('Corrige los errores del formulario')).toBeInTheDocument();
  });

  it('switches the sign-in screen to Arabic from its language menu, right to left', async () => {
    renderApp('/', noTotp);
    await userEvent.selectOptions(await screen.findByTestId('language-select'), 'ar');
    expect(await screen.findByRole('heading', { name: 'تسجيل الدخول' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(screen.getByLabelText('كلمة المرور')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByTestId('language-select'), 'en');
    expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('dir', 'ltr'));
  });

  it('resets a password in Arabic: the steps, the server’s known answer, the countdown’s figure', async () => {
    renderApp(
      '/forgot-password',
      {
        'user.reset_password_email': () => ({ Success: 'A password reset OTP has been sent to your email' }),
      },
      { i18n: testI18n('ar') },
    );
    expect(await screen.findByRole('heading', { name: 'إعادة تعيين كلمة المرور' })).toBeInTheDocument();
    expect(screen.getByTestId('language-select')).toHaveValue('ar');
    await userEvent.click(screen.getByRole('button', { name: 'إرسال رمز OTP' }));
    expect(await screen.findByText('اسم المستخدم مطلوب')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('اسم المستخدم'), 'demo');
    await userEvent.click(screen.getByRole('button', { name: 'إرسال رمز OTP' }));
    expect(
      await screen.findByText('تم إرسال رمز OTP لإعادة تعيين كلمة المرور إلى بريدك الإلكتروني'),
    ).toBeInTheDocument();
    // Latin digits in Arabic (lib/i18n/locales.ts).
    expect(screen.getByRole('button', { name: /^إعادة إرسال الرمز بعد \d+ ث$/ })).toBeDisabled();
  });

  it('registers in Portuguese: the labels and the sponsor check in words', async () => {
    renderApp(
      '/register?sponsor=demo&side=left',
      {
        'user.view_country': () => ({ Success: ['Brazil'] }),
        'user.check_username_available': () => ({ Status: false }),
      },
      { i18n: testI18n('pt-BR') },
    );
    expect(await screen.findByRole('heading', { name: 'Criar conta' })).toBeInTheDocument();
    expect(
      await screen.findByText('Patrocinador verificado · você entra na perna esquerda'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Nome completo')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Entre' })).toHaveAttribute('href', '/');
  });
});
