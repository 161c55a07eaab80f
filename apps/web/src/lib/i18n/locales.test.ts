import { describe, expect, it } from 'vitest';
import { directionOf, intlLocaleOf, matchLocale, pickLocale } from './locales.ts';

describe('the starting language', () => {
  it('follows the address, then the stored choice, then the browser, then English', () => {
    expect(pickLocale({ query: 'ar', stored: 'es', browser: ['pt-BR'] })).toBe('ar');
    expect(pickLocale({ query: 'xx', stored: 'es', browser: ['pt-BR'] })).toBe('es');
    expect(pickLocale({ stored: 'klingon', browser: ['fr-FR', 'pt-PT', 'es'] })).toBe('pt-BR');
    expect(pickLocale({ browser: ['fr-FR', 'de'] })).toBe('en');
    expect(pickLocale({ query: 'en-XA' })).toBe('en-XA');
  });

  it('matches a browser tag exactly, else by its language', () => {
    expect(matchLocale('pt-br')).toBe('pt-BR');
    expect(matchLocale('es-MX')).toBe('es');
    expect(matchLocale('ar-EG')).toBe('ar');
    expect(matchLocale('en-GB')).toBe('en');
    expect(matchLocale('fr')).toBeUndefined();
  });

  it('writes Arabic right to left, with Latin digits in figures', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('es')).toBe('ltr');
    expect(new Intl.NumberFormat(intlLocaleOf('ar')).format(1234.5)).toBe('1,234.5');
  });
});
