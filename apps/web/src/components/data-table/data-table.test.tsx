import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderApp } from '@/testing/render.tsx';

describe('smoke', () => {
  it('renders transactions', async () => {
    localStorage.setItem('jwt', 'token');
    localStorage.setItem('user', JSON.stringify({ username: 'demo', name: 'Demo', email: 'd@example.com', avatar: 'Default' }));
    renderApp('/dashboard/transactions', {
      'subscription.subscription_transaction': () => ({ Success: [] }),
      'subscription.total_pagination_subscription_transaction': () => ({ Success: 1 }),
    });
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });
});
