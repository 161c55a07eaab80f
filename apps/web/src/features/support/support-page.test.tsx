import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { MSG, SUPPORT_SEND_DELAY_MS } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { callsTo, loadPageBeforeTests, renderSignedIn } from '@/testing/member.ts';
import { createMockClient, MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import SupportPage from './support-page.tsx';

/** The page alone, with or without the server's support capability. */
function renderSupport(capabilities: string[] = [], handlers: MockHandlers = {}) {
  const calls: { path: string; input: unknown }[] = [];
  render(
    <TestProviders config={{ ...testConfig, capabilities }} trpcClient={createMockClient(handlers, calls)}>
      <MemoryRouter>
        <SupportPage />
      </MemoryRouter>
    </TestProviders>,
  );
  return { calls };
}

const form = () => screen.getByRole('form', { name: 'Contact Support' });
const field = (label: string) =>
  within(form()).getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement;
const submit = () => userEvent.click(within(form()).getByRole('button', { name: 'Send Message' }));
const valid = {
  Name: 'Demo Member',
  Email: 'demo@example.com',
  Subject: 'Upgrade',
  Message: 'How do I upgrade my package?',
};

async function fill(values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await userEvent.clear(field(label));
    if (value) await userEvent.type(field(label), value);
  }
}

// The lazy shell and page, imported once before the tests' waits start.
loadPageBeforeTests(() => import('./support-page.tsx'));

afterEach(() => {
  vi.useRealTimers();
});

describe('Support page', () => {
  it('is the /dashboard/support route, with the five FAQ items and the help card', async () => {
    renderSignedIn('/dashboard/support');
    expect(await screen.findByRole('heading', { name: 'Support', level: 1 })).toBeInTheDocument();
    const questions = [
      'How do I upgrade my package?',
      'What payment methods do you accept?',
      'Can I cancel my subscription?',
      'Is there a free trial?',
      'How do I reset my password?',
    ];
    for (const question of questions)
      expect(screen.getByRole('button', { name: question })).toBeInTheDocument();
    const trial = screen.getByRole('button', { name: 'Is there a free trial?' });
    expect(trial).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trial);
    expect(trial).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/14-day free trial/)).toBeVisible();
    const help = screen.getByRole('complementary', { name: 'Support hours' });
    expect(help).toHaveTextContent('Support is available Monday to Friday, 9am to 5pm EST.');
  });
});

describe('Contact Support form (spec §5)', () => {
  it('requires every field, with the spec messages', async () => {
    renderSupport();
    await submit();
    for (const message of [MSG.nameRequired, MSG.emailRequired, MSG.subjectRequired, MSG.messageRequired]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    // Spaces alone are not a value.
    await fill({ Name: '   ', Email: 'demo@example.com', Subject: '  ', Message: '          ' });
    await submit();
    expect(await screen.findByText(MSG.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.subjectRequired)).toBeInTheDocument();
    expect(screen.getByText(MSG.messageRequired)).toBeInTheDocument();
    expect(screen.queryByText(MSG.emailRequired)).toBeNull();
  });

  // Five forms typed in full, key by key: over 15 s on a busy machine.
  it("rejects an email that fails the simple pattern with 'Email is invalid'", async () => {
    renderSupport();
    for (const email of ['demo', 'demo@example', 'demo example@x.com', '@example.com']) {
      await fill({ ...valid, Email: email });
      await submit();
      expect(await screen.findByText(MSG.emailInvalid), email).toBeInTheDocument();
    }
    await fill({ Email: 'a@b.co' });
    await submit();
    expect(await screen.findByText(MSG.messageSent, {}, { timeout: 4000 })).toBeInTheDocument();
  }, 45_000);

  it('needs a message of at least 10 characters', async () => {
    renderSupport();
    await fill({ ...valid, Message: '123456789' });
    await submit();
    expect(await screen.findByText(MSG.messageMin)).toBeInTheDocument();
    await fill({ Message: '1234567890' });
    await submit();
    expect(screen.queryByText(MSG.messageMin)).toBeNull();
  });

  it('clears a field’s error as soon as it is edited, and the others stay until the next submit', async () => {
    renderSupport();
    await submit();
    expect(await screen.findByText(MSG.nameRequired)).toBeInTheDocument();
    await userEvent.type(field('Name'), 'D');
    expect(screen.queryByText(MSG.nameRequired)).toBeNull();
    expect(screen.getByText(MSG.emailRequired)).toBeInTheDocument();
    // Typing an incomplete email clears 'Email is required' without showing 'Email is invalid' yet.
    await userEvent.type(field('Email'), 'x');
    expect(screen.queryByText(MSG.emailRequired)).toBeNull();
    expect(screen.queryByText(MSG.emailInvalid)).toBeNull();
    await userEvent.type(field('Subject'), 'S');
    await userEvent.type(field('Message'), 'short');
    expect(screen.queryByText(MSG.subjectRequired)).toBeNull();
    expect(screen.queryByText(MSG.messageRequired)).toBeNull();
    await submit();
    expect(await screen.findByText(MSG.emailInvalid)).toBeInTheDocument();
    expect(screen.getByText(MSG.messageMin)).toBeInTheDocument();
  });
});

describe('Contact Support states', () => {
  it('without the support capability: sending for 1.5 s with no server call, then sent; the form clears', async () => {
    const { calls } = renderSupport([]);
    await fill(valid);
    vi.useFakeTimers();
    fireEvent.click(within(form()).getByRole('button', { name: 'Send Message' }));
    // The resolver is async: let it settle, then the button says it is sending.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(within(form()).getByRole('button', { name: /Sending/ })).toBeDisabled();
    expect(field('Name')).toBeDisabled();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SUPPORT_SEND_DELAY_MS - 1);
    });
    expect(screen.queryByText(MSG.messageSent)).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    vi.useRealTimers();
    expect(screen.getByText(MSG.messageSent)).toBeInTheDocument();
    expect(calls).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Send another message' }));
    for (const label of Object.keys(valid)) expect(field(label)).toHaveValue('');
  });

  it('with the support capability: sends the trimmed message to the server, shows sending until it answers, then sent', async () => {
    let answer!: () => void;
    const { calls } = renderSupport(['support'], {
      'support.send_message': () =>
        new Promise(
          (resolve) => (answer = () => resolve({ Success: MSG.messageSent, Ticket: 'SP0000000001' })),
        ),
    });
    await fill({ ...valid, Name: '  Demo Member  ' });
    await submit();
    expect(await within(form()).findByRole('button', { name: /Sending/ })).toBeDisabled();
    expect(callsTo(calls, 'support.send_message').map((call) => call.input)).toEqual([
      {
        name: 'Demo Member',
        email: 'demo@example.com',
        subject: 'Upgrade',
        message: 'How do I upgrade my package?',
      },
    ]);
    await act(async () => answer());
    expect(await screen.findByText(MSG.messageSent)).toBeInTheDocument();
    // Focus follows the state: to the new button, then back to the first field.
    expect(screen.getByRole('button', { name: 'Send another message' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Send another message' }));
    for (const label of Object.keys(valid)) expect(field(label)).toHaveValue('');
    expect(field('Name')).toHaveFocus();
  });

  it('with the support capability: a server refusal is toasted and the message stays in the form', async () => {
    renderSupport(['support'], {
      'support.send_message': () => {
        throw new MockFailure('Too many requests. Please wait a minute and try again.', 429);
      },
    });
    await fill(valid);
    await submit();
    expect(
      await screen.findByText('Too many requests. Please wait a minute and try again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(MSG.messageSent)).toBeNull();
    expect(field('Message')).toHaveValue(valid.Message);
    expect(within(form()).getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });
});
