/**
 * Support and Timeline end to end, in both client modes. The local server advertises the
 * `support` and `activity` extensions, so both modes send the message to it (over /trpc or the
 * REST path) and show the member's real activity.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, freshPagePerTest, mailbox, registerMember, signInWithToken, uniqueName } from './support.ts';

const SUPPORT_ADDRESS = 'support@example.com';
const servers = inject('e2eServers');

describe.each(servers)('support and timeline in $mode mode', (server) => {
  let page!: Page;
  freshPagePerTest(server, { width: 1280, height: 900 }, (fresh) => (page = fresh));

  it("sends a support message: 'Message sent!', the mail reaches the support mailbox, the form clears", async () => {
    const member = await registerMember(server, uniqueName('sup'));
    await signInWithToken(page, server, member.username, member.password);
    await page.goto(`${server.url}/dashboard/support`);
    const form = page.getByRole('form', { name: 'Contact Support' });
    const subject = `Question ${uniqueName('q')}`;

    // The spec's rules hold in the browser too.
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => form.getByText('Name is required').isVisible()).toBe(true);

    await form.getByLabel('Name').fill('E2E Member');
    await form.getByLabel('Email').fill(member.email);
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('How do I upgrade my package to Gold?');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => page.getByText('Message sent!').isVisible()).toBe(true);

    const toSupport = (await mailbox(server, SUPPORT_ADDRESS)).find((mail) => mail.subject.endsWith(subject));
    expect(toSupport?.text).toContain('How do I upgrade my package to Gold?');
    expect(toSupport?.text).toContain(`Member: ${member.username}`);
    const [confirmation] = await mailbox(server, member.username);
    expect(confirmation?.subject).toMatch(/^We received your message \[SP[0-9A-F]+\]$/);

    await page.getByRole('button', { name: 'Send another message' }).click();
    for (const label of ['Name', 'Email', 'Subject', 'Message'])
      expect(await form.getByLabel(label).inputValue()).toBe('');
  });

  it("shows the member's own activity on the Timeline", async () => {
    const member = await registerMember(server, uniqueName('tl'));
    const subject = `Timeline ${uniqueName('t')}`;
    await api(
      server,
      '/support/send_message',
      { name: 'E2E Member', email: member.email, subject, message: 'A message for the timeline.' },
      member.token,
    );
    await signInWithToken(page, server, member.username, member.password);
    await page.goto(`${server.url}/dashboard/timeline`);
    const list = page.getByRole('list', { name: 'Activities' });
    await expect.poll(() => list.innerText()).toContain(subject);
    const text = await list.innerText();
    expect(text).toContain('Support message sent');
    // The registration's welcome, not the static sample.
    expect(text).toContain('Welcome, E2E Member! Your account is ready.');
    expect(text).not.toContain('You purchased the Gold package');
  });
});
