/** The provider's messages in the member's language: by key, by pattern, or as sent. */
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { MSG, tooLongMessage, unknownFieldMessage } from '@md/shared';
import { testI18n } from '@/testing/i18n.ts';
import { I18nProvider, KNOWN_TEXTS, useMessageText } from './i18n.tsx';
import type { AnyLocale } from './locales.ts';

const en = testI18n('en').messages;

function messageTextIn(locale: AnyLocale) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider initial={testI18n(locale)}>{children}</I18nProvider>
  );
  return renderHook(() => useMessageText(), { wrapper }).result.current;
}

describe('useMessageText', () => {
  it('translates a message of the spec by its key', () => {
    expect(messageTextIn('es')(MSG.usernameRequired)).toBe('El nombre de usuario es obligatorio');
    expect(messageTextIn('ar')(MSG.usernameRequired)).toBe('اسم المستخدم مطلوب');
    expect(messageTextIn('pt-BR')(MSG.loginSuccessful)).toBe('Login realizado com sucesso!');
    // English is the spec's words, misspellings included.
    expect(messageTextIn('en')(MSG.invalidWalletAddress)).toBe('Invaid Wallet Address');
    // A server's answer arrives trimmed: the spec's trailing space does not hide it.
    expect(messageTextIn('es')(MSG.withdrawalMin.trim())).toBe('El importe debe ser mayor que $20');
  });

  it('translates the shared message functions’ texts by their pattern, with their values', () => {
    const es = messageTextIn('es');
    const ar = messageTextIn('ar');
    expect(es(tooLongMessage('Plan', 12))).toBe('El plan debe tener como máximo 12 caracteres');
    expect(ar(tooLongMessage('Username', 3))).toBe('يجب ألا يتجاوز اسم المستخدم 3 أحرف');
    expect(es(tooLongMessage('Wallet', 40))).toBe('El campo Wallet debe tener como máximo 40 caracteres');
    expect(es(unknownFieldMessage(['pagesize']))).toBe("Se recibió un campo desconocido: 'pagesize'");
    expect(es(unknownFieldMessage(['a', 'b']))).toBe("Se recibieron campos desconocidos: 'a', 'b'");
    expect(es(MSG.errorFetchingData(MSG.unexpectedError))).toBe(
      'Error al obtener los datos: Se produjo un error inesperado',
    );
    expect(ar(MSG.copiedLink('https://x.test/r?s=demo'))).toBe('تم نسخ "https://x.test/r?s=demo"');
    expect(messageTextIn('en')(tooLongMessage('Plan', 12))).toBe('Plan must be at most 12 characters');
  });

  it('translates the texts it knows besides the spec’s (the server’s, the shared rules’)', () => {
    expect(messageTextIn('es')('Invalid username or password')).toBe(
      'Nombre de usuario o contraseña incorrectos',
    );
    expect(messageTextIn('ar')('Country is required')).toBe('الدولة مطلوبة');
  });

  it('shows a message it does not know as sent, and no message as none', () => {
    const es = messageTextIn('es');
    expect(es('The provider is on fire')).toBe('The provider is on fire');
    expect(es(undefined)).toBeUndefined();
  });
});

describe('the msg catalog', () => {
  it('holds every message of the spec verbatim in English', () => {
    for (const [key, text] of Object.entries(MSG))
      if (typeof text === 'string') expect(en[`msg.${key}`], key).toBe(text);
    for (const [id, text] of Object.entries(KNOWN_TEXTS)) expect(en[id], id).toBe(text);
  });

  it('is translated into every language, with the same figures and placeholders', () => {
    // Figures and placeholders (a lone "1" may be written as a word: "un número", "رقمًا واحدًا").
    const figures = (text: unknown) =>
      (String(text).match(/(?<![A-Za-z])\d+(?![A-Za-z])|\{\w+[,}]/g) ?? [])
        .filter((figure) => figure !== '1')
        .sort();
    for (const locale of ['es', 'pt-BR', 'ar'] as const) {
      const messages = testI18n(locale).messages;
      for (const id of Object.keys(en).filter((id) => id.startsWith('msg.') || id.startsWith('app.'))) {
        expect(messages[id], `${locale} ${id}`).not.toBe(en[id]);
        if (id !== 'msg.tooLong') expect(figures(messages[id]), `${locale} ${id}`).toEqual(figures(en[id]));
      }
    }
  });
});
