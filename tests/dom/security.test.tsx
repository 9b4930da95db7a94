import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PasskeyRow, SecurityState } from '#shared/contract/security';
import { formatDate } from '#shared/format';
import { initI18n } from '../../src/i18n/index';
import StepUpSheet from '../../src/screens/_parts/security/StepUpSheet';
import SecurityScreen from '../../src/screens/Security/SecurityScreen';
import { useLock } from '../../src/shell/lock';
import { useUi } from '../../src/store/ui';
import { fake } from '../support/fake-worker';

/*
 * Settings → Security: what the screen shows for each state of the account's factors
 * (passkeys, the authenticator app, recovery codes, the app lock), and what each action sends
 * through the sync worker — removing a factor or renewing the codes only with a second factor.
 */

vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

/** What `securityState` answers now, and the screen's reload after a change. */
let watched: { data?: SecurityState; error?: string } = {};
const reload = vi.fn();
vi.mock('../../src/api/hooks', async () => {
  const { watchResult } = await import('../support/fake-worker');
  return { useWatch: () => watchResult(watched.data, { error: watched.error ?? null, reload }) };
});

/** The browser's WebAuthn ceremonies (@simplewebauthn/browser): what the authenticator answers. */
const webauthn = vi.hoisted(() => ({
  startRegistration: async () => ({ id: 'new-credential', type: 'public-key' }),
  startAuthentication: async () => ({ id: 'cred-1', type: 'public-key', response: { signature: 'sig' } }),
}));
vi.mock('@simplewebauthn/browser', () => webauthn);

const ADDED = Date.UTC(2026, 9, 2, 9, 0);
const USED = Date.UTC(2026, 10, 20, 9, 0);
const passkey = (id: number, name: string, over: Partial<PasskeyRow> = {}): PasskeyRow => ({
  id,
  name,
  created_at: ADDED,
  last_used_at: null,
  flagged: false,
  credential_id: `cred-${id}`,
  public_key: 'pQECAyYgASFYIA',
  counter: 0,
  transports: ['internal'],
  backed_up: true,
  ...over,
});
const account = (over: Partial<SecurityState> = {}): SecurityState => ({
  required: false,
  passkeys: [],
  totp: false,
  recovery_left: 0,
  rp_id: 'localhost',
  ...over,
});
const CODES = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);

/** WebAuthn's constructor as the browser has it (the screen only asks whether there is one). */
class PublicKeyCredential {}

/** Passkeys usable in this browser (a secure context with WebAuthn) or not. */
function passkeysInBrowser(yes: boolean): void {
  Object.defineProperty(window, 'isSecureContext', { value: yes, configurable: true });
  vi.stubGlobal('PublicKeyCredential', yes ? PublicKeyCredential : undefined);
}

/** The screen, with the shell's step-up sheet (AppShell mounts it when a change asks for a proof). */
function show(data: SecurityState | undefined, error?: string) {
  watched = { data, error };
  return render(
    <MemoryRouter>
      <SecurityScreen />
      <StepUpSheet />
    </MemoryRouter>,
  );
}

const dialog = (name: string | RegExp) => screen.getByRole('dialog', { name });
const click = (el: HTMLElement) => act(async () => fireEvent.click(el));
const type = (label: string, value: string, root: HTMLElement = document.body) =>
  fireEvent.change(getByLabel(root, label), { target: { value } });
const getByLabel = (root: HTMLElement, label: string) =>
  within(root).getByLabelText(label, { exact: false }) as HTMLInputElement;
const calls = () => fake.calls.map(({ name, input }) => ({ name, input }));

beforeAll(async () => {
  await initI18n('all');
});
beforeEach(() => {
  fake.reset();
  reload.mockClear();
  localStorage.clear();
  useUi.setState({ toasts: [] });
  useLock.setState({ after: 5 * 60_000 });
  passkeysInBrowser(true);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('what it shows', () => {
  it('waits with a placeholder, and says what failed with a retry', async () => {
    const { unmount } = show(undefined);
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeTruthy();
    unmount();
    show(undefined, 'errors.network');
    const alert = screen.getByRole('alert');
    await click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('nothing set up: invites a second step, no passkeys, the app off, no recovery codes', () => {
    show(account());
    expect(
      screen.getByText('Add a second step to your sign-in: a stolen password alone then opens nothing.'),
    ).toBeTruthy();
    expect(screen.getByText('No passkey yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Passkeys' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeTruthy();
    expect(screen.getByText('Off')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set up' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    // Codes come with the first factor: no section before.
    expect(screen.queryByRole('heading', { name: 'Recovery codes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'New codes' })).toBeNull();
    expect(screen.getByRole('button', { name: /Lock after.*5 minutes/ })).toBeTruthy();
  });

  it('factors set up: each passkey with its last use or its date, a copied one blocked, the app on, codes left', () => {
    show(
      account({
        required: true,
        totp: true,
        recovery_left: 7,
        passkeys: [
          passkey(1, 'Pixel 9', { last_used_at: USED }),
          passkey(2, 'YubiKey'),
          passkey(3, 'Old phone', { flagged: true }),
        ],
      }),
    );
    expect(
      screen.getByText(
        'Every sign-in needs a second step: your password, then a passkey or an authenticator code.',
      ),
    ).toBeTruthy();
    const rows = within(screen.getByRole('list', { name: 'Passkeys' })).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([
      `Pixel 9Last used ${formatDate(USED, 'en')}`,
      `YubiKeyAdded ${formatDate(ADDED, 'en')}`,
      `Old phoneAdded ${formatDate(ADDED, 'en')}Blocked: may have been copied`,
    ]);
    for (const name of ['Pixel 9', 'YubiKey', 'Old phone']) {
      expect(screen.getByRole('button', { name: `Rename ${name}` })).toBeTruthy();
      expect(screen.getByRole('button', { name: `Remove ${name}` })).toBeTruthy();
    }
    expect(screen.queryByText('No passkey yet.')).toBeNull();
    expect(screen.getByText('On')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeTruthy();
    expect(screen.getByText('7 recovery codes left')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New codes' })).toBeTruthy();
  });

  it('counts one code left in the singular, and none left too', () => {
    const { unmount } = show(account({ totp: true, recovery_left: 1 }));
    expect(screen.getByText('1 recovery code left')).toBeTruthy();
    unmount();
    show(account({ passkeys: [passkey(1, 'Pixel 9')], recovery_left: 0 }));
    expect(screen.getByText('0 recovery codes left')).toBeTruthy();
  });

  it('a browser without passkeys says so instead of offering to add one', () => {
    passkeysInBrowser(false);
    show(account());
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).toBeNull();
    expect(
      screen.getByText('This browser cannot use passkeys here. Use an authenticator app instead'),
    ).toBeTruthy();
  });
});

describe('what each action sends', () => {
  it('renames a passkey, and keeps the sheet with the reason when refused', async () => {
    show(account({ passkeys: [passkey(4, 'Pixel 9')] }));
    await click(screen.getByRole('button', { name: 'Rename Pixel 9' }));
    const sheet = dialog('Rename passkey');
    expect(getByLabel(sheet, 'Name').value).toBe('Pixel 9');
    type('Name', 'Work phone', sheet);
    fake.answers = [{ ok: false, error: 'errors.passkeyName', status: 400 }];
    await click(within(sheet).getByRole('button', { name: 'Save' }));
    expect(within(sheet).getByText('Give the passkey a name of up to 40 characters')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    await click(within(sheet).getByRole('button', { name: 'Save' }));
    expect(calls()).toEqual([
      { name: 'passkeyRename', input: { id: 4, name: 'Work phone' } },
      { name: 'passkeyRename', input: { id: 4, name: 'Work phone' } },
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Rename passkey' })).toBeNull();
  });

  it('removes a passkey only with a second factor: an app code, checked before it is sent', async () => {
    show(
      account({ passkeys: [passkey(4, 'Pixel 9'), passkey(5, 'YubiKey')], totp: true, recovery_left: 10 }),
    );
    await click(screen.getByRole('button', { name: 'Remove YubiKey' }));
    const sheet = dialog('Remove YubiKey?');
    expect(
      within(sheet).getByText('Confirm with a second step. Your other devices will be signed out.'),
    ).toBeTruthy();
    // Every proof the account can give: its passkey, the app's code, a recovery code.
    expect(within(sheet).getByRole('button', { name: 'Use your passkey' })).toBeTruthy();
    expect(within(sheet).getByRole('button', { name: 'Use a recovery code instead' })).toBeTruthy();
    // Nothing is sent without a whole code.
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    type('Code from your authenticator app', '12a34', sheet);
    expect(getByLabel(sheet, 'Code from your authenticator app').value).toBe('1234');
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(fake.calls).toEqual([]);
    expect(within(sheet).getByRole('alert').textContent).toBe(
      'Enter the 6-digit code from your authenticator app',
    );
    // A wrong code: the server's reason, the field emptied, nothing removed.
    type('Code from your authenticator app', '111111', sheet);
    fake.answers = [{ ok: false, error: 'errors.codeWrong', status: 400 }];
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(within(sheet).getByRole('alert').textContent).toBe(
      'That code is not right, please check your authenticator app',
    );
    expect(getByLabel(sheet, 'Code from your authenticator app').value).toBe('');
    expect(reload).not.toHaveBeenCalled();
    type('Code from your authenticator app', '654321', sheet);
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(calls()).toEqual([
      { name: 'passkeyRemove', input: { id: 5, code: '111111' } },
      { name: 'passkeyRemove', input: { id: 5, code: '654321' } },
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Remove YubiKey?' })).toBeNull();
    expect(useUi.getState().toasts.map((t) => [t.text, t.tone])).toEqual([['security.removed', 'success']]);
  });

  it('removes a passkey with another passkey: the server’s challenge signed by the browser', async () => {
    show(account({ passkeys: [passkey(1, 'Pixel 9'), passkey(2, 'YubiKey')] }));
    await click(screen.getByRole('button', { name: 'Remove Pixel 9' }));
    const sheet = dialog('Remove Pixel 9?');
    // No app and no codes left: the passkey is the only proof, and no code field is offered.
    expect(within(sheet).queryByLabelText('Code from your authenticator app', { exact: false })).toBeNull();
    expect(within(sheet).queryByRole('button', { name: 'Use a recovery code instead' })).toBeNull();
    fake.answers = [{ ok: true, data: { challenge: 'c2lnbi1tZQ', rpId: 'localhost' } }];
    await click(within(sheet).getByRole('button', { name: 'Use your passkey' }));
    expect(calls()).toEqual([
      { name: 'factorChallenge', input: {} },
      {
        name: 'passkeyRemove',
        input: { id: 1, passkey: { id: 'cred-1', type: 'public-key', response: { signature: 'sig' } } },
      },
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a blocked passkey is no proof; a recovery code is', async () => {
    show(account({ passkeys: [passkey(3, 'Old phone', { flagged: true })], recovery_left: 4 }));
    await click(screen.getByRole('button', { name: 'Remove Old phone' }));
    const sheet = dialog('Remove Old phone?');
    expect(within(sheet).queryByRole('button', { name: 'Use your passkey' })).toBeNull();
    // The recovery code is the one proof left, so its field is open at once.
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(within(sheet).getByRole('alert').textContent).toBe('A recovery code has 10 letters and digits');
    type('Recovery code', '  abcde-12345 ', sheet);
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(calls()).toEqual([{ name: 'passkeyRemove', input: { id: 3, recovery: 'abcde-12345' } }]);
  });

  it('turns the authenticator app off with a recovery code instead of the app', async () => {
    show(account({ totp: true, recovery_left: 9 }));
    await click(screen.getByRole('button', { name: 'Turn off' }));
    const sheet = dialog('Turn off the authenticator app?');
    await click(within(sheet).getByRole('button', { name: 'Use a recovery code instead' }));
    type('Recovery code', 'fghij-67890', sheet);
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(calls()).toEqual([{ name: 'totpRemove', input: { recovery: 'fghij-67890' } }]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Turn off the authenticator app?' })).toBeNull();
  });

  it('the last factor when two steps are required: the server’s reason, nothing removed', async () => {
    show(account({ required: true, totp: true, recovery_left: 10 }));
    await click(screen.getByRole('button', { name: 'Turn off' }));
    const sheet = dialog('Turn off the authenticator app?');
    type('Code from your authenticator app', '123456', sheet);
    fake.answers = [{ ok: false, error: 'errors.lastFactor', status: 409 }];
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(within(sheet).getByRole('alert').textContent).toBe(
      'Two-step sign-in is required: add another method before removing this one',
    );
    expect(reload).not.toHaveBeenCalled();
    expect(useUi.getState().toasts).toEqual([]);
  });

  it('new recovery codes with a second factor: the new list shown once, until saved', async () => {
    show(account({ totp: true, recovery_left: 2 }));
    await click(screen.getByRole('button', { name: 'New codes' }));
    const sheet = dialog('Make new recovery codes?');
    expect(
      within(sheet).getByText('Confirm with a second step. Your current codes will stop working.'),
    ).toBeTruthy();
    type('Code from your authenticator app', '246810', sheet);
    fake.answers = [{ ok: true, data: { recovery_codes: CODES } }];
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(calls()).toEqual([{ name: 'recoveryRenew', input: { code: '246810' } }]);
    expect(reload).toHaveBeenCalledTimes(1);
    const codes = dialog('Recovery codes');
    const list = within(codes).getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(within(codes).getByText('These codes are shown only now.')).toBeTruthy();
    await click(within(codes).getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('dialog', { name: 'Recovery codes' })).toBeNull();
  });

  it('sets up the authenticator app: its key, then its first code; a first factor shows its codes', async () => {
    show(account());
    fake.answers = [
      {
        ok: true,
        data: {
          secret: 'JBSWY3DPEHPK3PXPJBSW',
          uri: 'otpauth://totp/Bourse:9876543210?secret=JBSWY3DPEHPK3PXPJBSW',
        },
      },
    ];
    await click(screen.getByRole('button', { name: 'Set up' }));
    const sheet = dialog('Set up an authenticator app');
    expect(within(sheet).getByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(within(sheet).getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW');
    type('3. Enter the 6-digit code the app shows', '135790', sheet);
    fake.answers = [{ ok: true, data: { recovery_codes: CODES, session: null } }];
    await click(within(sheet).getByRole('button', { name: 'Turn on' }));
    expect(calls()).toEqual([
      { name: 'totpSetup', input: {} },
      { name: 'totpConfirm', input: { code: '135790' } },
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
    const codes = within(dialog('Recovery codes')).getAllByRole('listitem');
    expect(codes.map((li) => li.textContent)).toEqual(CODES);
  });

  it('adds a passkey under the name given: the server’s options, the browser’s answer, no codes when it had some', async () => {
    show(account({ totp: true, recovery_left: 10 }));
    await click(screen.getByRole('button', { name: 'Add a passkey' }));
    const sheet = dialog('Add a passkey');
    type('Name', '  Work laptop ', sheet);
    fake.answers = [
      { ok: true, data: { challenge: 'bmV3LWtleQ', rp: { id: 'localhost' } } },
      { ok: true, data: { recovery_codes: null, session: null, passkey: passkey(9, 'Work laptop') } },
    ];
    await click(within(sheet).getByRole('button', { name: 'Create passkey' }));
    expect(calls()).toEqual([
      { name: 'passkeyOptions', input: {} },
      {
        name: 'passkeyAdd',
        input: { response: { id: 'new-credential', type: 'public-key' }, name: 'Work laptop' },
      },
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useUi.getState().toasts.map((t) => t.text)).toEqual(['security.passkeys.addedToast']);
  });

  it('adds a passkey where the account has an app only after a proof of the app', async () => {
    show(account({ totp: true, recovery_left: 10 }));
    await click(screen.getByRole('button', { name: 'Add a passkey' }));
    type('Name', 'Work laptop', dialog('Add a passkey'));
    fake.answers = [
      { ok: false, error: 'errors.stepUpRequired', status: 403 },
      { ok: true, data: account({ totp: true, recovery_left: 10 }) },
    ];
    await click(within(dialog('Add a passkey')).getByRole('button', { name: 'Create passkey' }));
    // The step-up sheet: what the account can prove with (the app, or a recovery code).
    const sheet = dialog('Confirm it’s you');
    expect(
      within(sheet).getByText(
        'This change needs a second factor you already have: your passkey, your authenticator app or a recovery code.',
      ),
    ).toBeTruthy();
    expect(within(sheet).queryByRole('button', { name: 'Use your passkey' })).toBeNull();
    type('Code from your authenticator app', '246813', sheet);
    fake.answers = [
      { ok: true, data: { fresh_until: 1 } },
      { ok: true, data: { challenge: 'bmV3LWtleQ', rp: { id: 'localhost' } } },
      { ok: true, data: { recovery_codes: null, session: null, passkey: passkey(9, 'Work laptop') } },
    ];
    await click(within(sheet).getByRole('button', { name: 'Confirm' }));
    expect(calls()).toEqual([
      { name: 'passkeyOptions', input: {} },
      { name: 'securityState', input: {} },
      { name: 'stepUp', input: { code: '246813' } },
      { name: 'passkeyOptions', input: {} },
      {
        name: 'passkeyAdd',
        input: { response: { id: 'new-credential', type: 'public-key' }, name: 'Work laptop' },
      },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(useUi.getState().toasts.map((t) => t.text)).toEqual(['security.passkeys.addedToast']);
  });

  it('a step-up sheet closed without a proof adds nothing and says why', async () => {
    show(account({ totp: true, recovery_left: 10 }));
    await click(screen.getByRole('button', { name: 'Add a passkey' }));
    fake.answers = [
      { ok: false, error: 'errors.stepUpRequired', status: 403 },
      { ok: true, data: account({ totp: true, recovery_left: 10 }) },
    ];
    await click(within(dialog('Add a passkey')).getByRole('button', { name: 'Create passkey' }));
    await act(async () => {
      dialog('Confirm it’s you').dispatchEvent(new Event('cancel'));
    });
    expect(screen.queryByRole('dialog', { name: 'Confirm it’s you' })).toBeNull();
    expect(calls().map((c) => c.name)).toEqual(['passkeyOptions', 'securityState']);
    expect(
      within(dialog('Add a passkey')).getByText(
        'Confirm it’s you with your passkey, authenticator code or a recovery code first',
      ),
    ).toBeTruthy();
  });

  it('a passkey named nothing is named after this phone; a cancelled prompt sends nothing more', async () => {
    show(account());
    await click(screen.getByRole('button', { name: 'Add a passkey' }));
    const sheet = dialog('Add a passkey');
    const cancelled = Object.assign(new Error('cancelled'), { name: 'NotAllowedError' });
    const spy = vi.spyOn(webauthn, 'startRegistration').mockRejectedValueOnce(cancelled);
    fake.answers = [{ ok: true, data: { challenge: 'bmV3LWtleQ' } }];
    await click(within(sheet).getByRole('button', { name: 'Create passkey' }));
    expect(calls()).toEqual([{ name: 'passkeyOptions', input: {} }]);
    expect(
      within(sheet).getByText('The passkey prompt was closed. Try again when you are ready'),
    ).toBeTruthy();
    spy.mockRestore();
    fake.answers = [
      { ok: true, data: { challenge: 'bmV3LWtleQ' } },
      { ok: true, data: { recovery_codes: CODES, session: null, passkey: passkey(9, 'This phone') } },
    ];
    await click(within(sheet).getByRole('button', { name: 'Create passkey' }));
    expect(calls().at(-1)).toEqual({
      name: 'passkeyAdd',
      input: { response: { id: 'new-credential', type: 'public-key' }, name: 'This phone' },
    });
    // The account's first factor: its recovery codes, once.
    expect(within(dialog('Recovery codes')).getAllByRole('listitem')).toHaveLength(10);
  });

  it('sets how long the app may stay in the background before it locks, on this device', async () => {
    show(account());
    await click(screen.getByRole('button', { name: /Lock after/ }));
    const sheet = dialog('Lock after');
    expect(within(sheet).getByRole('button', { name: '5 minutes' }).getAttribute('aria-current')).toBe(
      'true',
    );
    await click(within(sheet).getByRole('button', { name: '1 minute' }));
    expect(useLock.getState().after).toBe(60_000);
    expect(screen.getByRole('button', { name: /Lock after.*1 minute/ })).toBeTruthy();
    expect(fake.calls).toEqual([]);
  });
});
