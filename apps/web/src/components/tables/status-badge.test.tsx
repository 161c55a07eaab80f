import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { TestProviders } from '@/testing/providers.tsx';
import { testI18n } from '@/testing/i18n.ts';
import { testConfig } from '@/testing/render.tsx';
import { StatusBadge, statusTone } from './status-badge.tsx';

const badge = (node: React.ReactNode) => {
  render(<TestProviders config={testConfig}>{node}</TestProviders>);
};

describe('StatusBadge', () => {
  it('keeps the spec rule callers pass as ok: green when true, red otherwise', () => {
    badge(
      <>
        <StatusBadge status="Success" ok />
        <StatusBadge status="Pending" ok={false} />
      </>,
    );
    expect(screen.getByText('Success')).toHaveAttribute('data-tone', 'ok');
    expect(screen.getByText('Pending')).toHaveAttribute('data-tone', 'bad');
  });

  it('without ok, takes the tone from the status word: every status a badge, an unknown one grey', () => {
    expect(statusTone('PAID')).toBe('ok');
    expect(statusTone('Matched')).toBe('ok');
    expect(statusTone('pending')).toBe('pending');
    expect(statusTone('PARTIAL')).toBe('pending');
    expect(statusTone('EXPIRED')).toBe('bad');
    expect(statusTone('Carried')).toBe('info');
    expect(statusTone('Something new')).toBe('neutral');
    expect(statusTone(null)).toBe('neutral');
    badge(<StatusBadge status="PENDING" />);
    expect(screen.getByText('PENDING')).toHaveAttribute('data-tone', 'pending');
  });

  it('says a status word it knows in the member’s language, one it does not as sent', () => {
    render(
      <TestProviders config={testConfig} i18n={testI18n('es')}>
        <StatusBadge status="EXPIRED" />
        <StatusBadge status="Something new" />
      </TestProviders>,
    );
    expect(screen.getByText('Vencido')).toHaveAttribute('data-tone', 'bad');
    expect(screen.getByText('Something new')).toHaveAttribute('data-tone', 'neutral');
  });
});
