import { describe, expect, it } from 'vitest';
import { type CallResult, ERR } from '#shared/contract/define';
import { MESSAGES_TTL_MS } from '#shared/rules';
import { readChat } from '../../src/device/chat';
import type { Device } from '../../workers/device';
import { createMessages } from '../../workers/messages';
import { down, freshDevice, ok } from '../support/device';

/*
 * The customer-service messages outbox against an in-memory stand-in of the server's messages
 * endpoints (their contract: sending a client id twice posts once).
 */
const fresh = () => freshDevice('outbox');

/** The chat as its screen reads it from the device store (src/device/chat.ts). */
const chatOf = async (device: Device, now = Date.now()) => readChat(await device.db(), now);

function chatServer() {
  const rows: Array<{
    id: number;
    sender: 'user' | 'agent';
    body: string;
    client_id: string | null;
    read_at: null;
    created_at: number;
  }> = [];
  let lists = 0;
  let up = true;
  return {
    rows,
    lists: () => lists,
    setUp(next: boolean) {
      up = next;
    },
    async send(name: string, input: Record<string, unknown>): Promise<CallResult<unknown>> {
      if (!up) return down;
      if (name === 'messageList') {
        lists++;
        return ok([...rows]);
      }
      const body = String(input.message);
      if (body.length > 2000) return { ok: false, error: ERR.invalidInput, status: 400 };
      const dup = rows.find((r) => r.client_id === input.client_id);
      if (dup) return ok(dup);
      const row = {
        id: rows.length + 1,
        sender: 'user' as const,
        body,
        client_id: String(input.client_id),
        read_at: null,
        created_at: rows.length + 1,
      };
      rows.push(row);
      return ok(row);
    },
  };
}

describe('customer-service messages', () => {
  it('serves the cached list for 30 minutes, then refetches', async () => {
    const device = fresh();
    const server = chatServer();
    server.rows.push({
      id: 1,
      sender: 'agent',
      body: 'Welcome',
      client_id: null,
      read_at: null,
      created_at: 1,
    });
    let clock = 1_000_000;
    const chat = createMessages({
      device,
      send: (n, i) => server.send(n, i),
      online: () => true,
      now: () => clock,
    });
    await chat.load();
    expect(server.lists()).toBe(1);
    expect((await chatOf(device, clock)).messages.map((m) => m.body)).toEqual(['Welcome']);
    expect((await chatOf(device, clock)).stale).toBe(false);
    clock += MESSAGES_TTL_MS - 1;
    await chat.load();
    expect(server.lists()).toBe(1);
    clock += 1;
    expect((await chatOf(device, clock)).stale).toBe(true);
    server.rows.push({
      id: 2,
      sender: 'agent',
      body: 'Anything else?',
      client_id: null,
      read_at: null,
      created_at: 2,
    });
    await chat.load();
    expect(server.lists()).toBe(2);
    expect((await chatOf(device, clock)).messages.map((m) => m.body)).toEqual(['Welcome', 'Anything else?']);
    await chat.load(true);
    expect(server.lists()).toBe(3);
    // A refresh that fails marks the list out of date, on the device; the next good one clears it.
    server.setUp(false);
    await chat.load(true);
    expect(await chatOf(device, clock)).toMatchObject({ stale: true, messages: [{}, {}] });
    server.setUp(true);
    await chat.load(true);
    expect((await chatOf(device, clock)).stale).toBe(false);
  });

  it('keeps messages written offline as pending and sends them in order when online', async () => {
    const device = fresh();
    const server = chatServer();
    let online = false;
    let n = 0;
    const chat = createMessages({
      device,
      send: (name, i) => server.send(name, i),
      online: () => online,
      newId: () => `c${++n}`,
      now: () => 1000 + n,
    });
    await chat.write('first');
    await chat.write('second');
    let view = await chatOf(device);
    expect(view.pending.map((p) => [p.body, p.pending])).toEqual([
      ['first', true],
      ['second', true],
    ]);
    expect(server.rows).toEqual([]);
    online = true;
    await chat.flush();
    view = await chatOf(device);
    expect(view.pending).toEqual([]);
    expect(view.messages.map((m) => [m.body, m.client_id])).toEqual([
      ['first', 'c1'],
      ['second', 'c2'],
    ]);
  });

  it('a message whose answer was lost is sent once and shown once', async () => {
    const device = fresh();
    const server = chatServer();
    const chat = createMessages({
      device,
      send: (name, i) => server.send(name, i),
      online: () => true,
      newId: () => 'only',
    });
    // The server got it, but the app never saw the answer: it is still in the outbox.
    server.rows.push({
      id: 1,
      sender: 'user',
      body: 'hello',
      client_id: 'only',
      read_at: null,
      created_at: 1,
    });
    await device.write(device.epoch(), (db) =>
      db.pendingMessages.put({ clientId: 'only', body: 'hello', at: 1, attempts: 1 }),
    );
    expect((await chatOf(device)).pending).toHaveLength(1);
    await chat.load(true);
    const view = await chatOf(device);
    expect(view.pending).toEqual([]);
    expect(view.messages.map((m) => m.body)).toEqual(['hello']);
    await chat.flush();
    expect(server.rows).toHaveLength(1);
  });

  it('a network failure keeps the message waiting; a refusal marks it failed until retried', async () => {
    const device = fresh();
    const server = chatServer();
    const chat = createMessages({ device, send: (name, i) => server.send(name, i), online: () => true });
    server.setUp(false);
    const id = await chat.write('later');
    await chat.flush();
    expect((await chatOf(device)).pending.map((p) => [p.body, p.failed])).toEqual([['later', undefined]]);
    server.setUp(true);
    await chat.flush();
    expect((await chatOf(device)).pending).toEqual([]);
    expect(id).toBeTruthy();

    const long = await chat.write('x'.repeat(2001));
    await chat.flush();
    expect((await chatOf(device)).pending.map((p) => p.failed)).toEqual([ERR.invalidInput]);
    await chat.discard(long);
    expect((await chatOf(device)).pending).toEqual([]);
  });
});
