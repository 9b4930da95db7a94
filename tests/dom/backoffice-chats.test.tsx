import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ChatThread, type Me, OPS_MESSAGES } from '../../src/shared/backoffice';

/**
 * The chat inbox (src/backoffice/screens/Chats) as an agent replies: a reply on its way is sent
 * once however often Enter is pressed, its Send busy, the box emptied once it is sent; a refused
 * reply is said in the server's words and its words stay to send again; Assign to me is busy
 * while it is sent.
 */

const NOW = Date.UTC(2026, 11, 7, 10);
const me: Me = {
  id: 7,
  login: 'dev',
  name: 'Dev Patel',
  role: 'support',
  stage: 'full',
  caps: ['work', 'chat'],
  freshUntil: 0,
  expiresAt: 0,
  idleMs: 0,
  factors: { totp: true, passkeys: 0 },
};
const thread: ChatThread = {
  userId: 42,
  phone: '9876543210',
  name: 'Asha Rao',
  messages: [
    { id: 1, sender: 'user', body: 'Where is my payout?', at: NOW - 60_000, readAt: null, automatic: false },
  ],
  assignedTo: null,
  customerTyping: false,
  waitingSince: NOW - 60_000,
  firstReplyMs: null,
};

const calls: Array<[string, unknown]> = [];
let answers: Record<string, () => Promise<unknown>>;
vi.mock('../../src/backoffice/session', () => ({ useMe: () => me }));
vi.mock('../../src/backoffice/api', () => ({
  call: async (name: string, input: unknown) => {
    if (name === 'chats') return { ok: true, data: [] };
    if (name === 'chat') return { ok: true, data: thread };
    if (name === 'canned') return { ok: true, data: [] };
    // The customer beside the conversation is not this test's: it stays loading.
    if (name === 'customer') return new Promise(() => {});
    if (name === 'chatTyping') return { ok: true, data: null };
    calls.push([name, input]);
    return answers[name]?.() ?? { ok: true, data: null };
  },
  serverNow: () => NOW,
  message: (e: string) => OPS_MESSAGES[e] ?? e,
}));

const { ChatsScreen } = await import('../../src/backoffice/screens/Chats/ChatsScreen');

async function show() {
  render(
    <MemoryRouter initialEntries={['/chats/42']}>
      <Routes>
        <Route path="/chats/:userId" element={<ChatsScreen />} />
      </Routes>
    </MemoryRouter>,
  );
  await screen.findByText('Where is my payout?');
  return screen.getByLabelText('Reply') as HTMLTextAreaElement;
}

describe('back office chats', () => {
  beforeAll(() => {
    Element.prototype.scrollIntoView ??= () => {};
  });
  beforeEach(() => {
    calls.length = 0;
    answers = {};
  });
  afterEach(cleanup);

  it('a reply is sent once however often Enter is pressed, Send busy meanwhile, and the box empties', async () => {
    let answer: (r: unknown) => void = () => {};
    answers.chatReply = () => new Promise((resolve) => (answer = resolve));
    const reply = await show();
    fireEvent.change(reply, { target: { value: '  Hello, checking now ' } });
    fireEvent.keyDown(reply, { key: 'Enter' });
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    await waitFor(() => expect(send.getAttribute('aria-busy')).toBe('true'));
    expect(send.disabled).toBe(true);
    fireEvent.keyDown(reply, { key: 'Enter' });
    fireEvent.keyDown(reply, { key: 'Enter' });
    expect(calls).toEqual([['chatReply', { userId: 42, body: 'Hello, checking now' }]]);
    answer({ ok: true, data: null });
    await waitFor(() => expect(reply.value).toBe(''));
    expect(send.getAttribute('aria-busy')).toBeNull();
  });

  it("a refused reply is said in the server's words and its words stay", async () => {
    answers.chatReply = async () => ({ ok: false, error: 'ops.errors.forbidden', status: 403 });
    const reply = await show();
    fireEvent.change(reply, { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(OPS_MESSAGES['ops.errors.forbidden']);
    expect(reply.value).toBe('Hello');
  });

  it('Assign to me is busy while it is sent', async () => {
    let answer: (r: unknown) => void = () => {};
    answers.chatAssign = () => new Promise((resolve) => (answer = resolve));
    await show();
    const assign = screen.getByRole('button', { name: 'Assign to me' }) as HTMLButtonElement;
    fireEvent.click(assign);
    await waitFor(() => expect(assign.getAttribute('aria-busy')).toBe('true'));
    expect(assign.disabled).toBe(true);
    expect(calls).toEqual([['chatAssign', { userId: 42, staffId: 7 }]]);
    answer({ ok: true, data: null });
    await waitFor(() => expect(assign.disabled).toBe(false));
  });
});
