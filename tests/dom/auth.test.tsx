import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forgetPassword, recallPassword, remember, remembered } from '../../src/auth/remember';
import { useForgotPassword } from '../../src/screens/ForgotPassword/useForgotPassword';
import { useLogin } from '../../src/screens/Login/useLogin';
import { fake } from '../support/fake-worker';

/** Login and forgot-password rules that must hold before any call leaves the app (SPEC §5, §8). */
vi.mock('../../src/api/client', async () => (await import('../support/fake-worker')).fakeClient);

beforeEach(() => {
  fake.reset();
  fake.respond = (name) =>
    name === 'login'
      ? { ok: true, data: { token: 't', id: 1, user: '9876543210', login: 1 } }
      : { ok: true, data: null };
  localStorage.clear();
});
afterEach(() => cleanup());

describe('login', () => {
  it('refuses a password under 6 characters without calling the server', async () => {
    const { result } = renderHook(() => useLogin());
    act(() => {
      result.current.setUser('98765-43210');
      result.current.setPassword('12345');
    });
    let ok: Awaited<ReturnType<typeof result.current.submit>> = 'done';
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe(false);
    expect(result.current.error).toBe('hint.passwordTooShort');
    expect(fake.calls).toEqual([]);
    act(() => result.current.setPassword('123456'));
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe('done');
    expect(fake.calls).toEqual([
      {
        name: 'login',
        input: { user: '9876543210', password: '123456', device: expect.stringMatching(/^[\w-]{8,64}$/) },
        key: undefined,
      },
    ]);
  });

  it('a step answer (two factors due) signs nobody in: the screen asks for the second factor', async () => {
    const step = { stage: 'verify', methods: ['totp', 'recovery'], expires_at: 2 };
    fake.respond = (name) =>
      name === 'login'
        ? { ok: true, data: { token: 'step', id: 1, user: '9876543210', login: 1, second: step } }
        : { ok: true, data: null };
    const { useSession } = await import('../../src/store/session');
    useSession.getState().clear();
    const { result } = renderHook(() => useLogin());
    act(() => {
      result.current.setUser('9876543210');
      result.current.setPassword('123456');
    });
    let ok: Awaited<ReturnType<typeof result.current.submit>> = false;
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe('step');
    expect(result.current.step?.second).toEqual(step);
    expect(useSession.getState().token).toBeNull();
    // The second step's full session signs in.
    await act(async () => result.current.finish({ token: 'full', id: 1, user: '9876543210', login: 3 }));
    expect(useSession.getState().token).toBe('full');
    expect(result.current.step).toBeNull();
  });
});

describe('forgot password', () => {
  it('says "No login data found" and returns to login when the remembered login went away meanwhile', async () => {
    localStorage.setItem('bourse.remember', JSON.stringify({ user: '9876543210', timestamp: 1 }));
    const { result } = renderHook(() => useForgotPassword());
    expect(result.current.hasLogin).toBe(true);
    act(() => {
      result.current.setOldPassword('old-pass');
      result.current.setPassword('new-pass');
      result.current.setConfirm('new-pass');
    });
    localStorage.removeItem('bourse.remember');
    let ok = true;
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe(false);
    expect(result.current.error).toBe('hint.noLoginData');
    expect(result.current.lost).toBe(true);
    expect(fake.calls).toEqual([]);
  });

  it('an account with a second factor: asks for the app code (or a recovery code) and sends it with the reset', async () => {
    localStorage.setItem('bourse.remember', JSON.stringify({ user: '9876543210', timestamp: 1 }));
    const { result } = renderHook(() => useForgotPassword());
    act(() => {
      result.current.setOldPassword('old-pass');
      result.current.setPassword('new-pass');
      result.current.setConfirm('new-pass');
    });
    expect(result.current.factor).toBeNull();
    fake.answers = [{ ok: false, error: 'errors.resetNeedsFactor', status: 400 }];
    await act(async () => {
      await result.current.submit();
    });
    expect(result.current.error).toBe('errors.resetNeedsFactor');
    expect(result.current.factor).toBe('totp');
    // Not sent without a whole code; digits only as typed.
    act(() => result.current.setCode('12a34'));
    expect(result.current.code).toBe('1234');
    let ok = true;
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe(false);
    expect(result.current.error).toBe('errors.codeFormat');
    // A recovery code instead.
    act(() => result.current.switchFactor());
    act(() => result.current.setCode(' abcde-fghjk '));
    await act(async () => {
      ok = await result.current.submit();
    });
    expect(ok).toBe(true);
    expect(fake.calls.map((c) => c.input)).toEqual([
      { user: '9876543210', password: 'old-pass', new_password: 'new-pass', device: expect.any(String) },
      {
        user: '9876543210',
        password: 'old-pass',
        new_password: 'new-pass',
        device: expect.any(String),
        recovery: 'abcde-fghjk',
      },
    ]);
  });
});

describe('remembered password', () => {
  it('forgot-password never fills the current password by itself, even when one is remembered', async () => {
    await remember('9876543210', 'secret123');
    // The premise: the password really is remembered and readable on this device.
    expect(await recallPassword()).toBe('secret123');
    const { result } = renderHook(() => useForgotPassword());
    // Give any fill from the vault every chance to land.
    for (let i = 0; i < 5; i++) await act(async () => new Promise((r) => setTimeout(r, 10)));
    expect(result.current.user).toBe('9876543210');
    expect(result.current.oldPassword).toBe('');
  });

  it('logout forgets the password and the key that could read it, keeping the phone number', async () => {
    await remember('9876543210', 'secret123');
    const kept = remembered()?.secret;
    expect(kept).toBeDefined();
    await forgetPassword();
    expect(remembered()).toEqual({ user: '9876543210', timestamp: expect.any(Number) });
    expect(await recallPassword()).toBeNull();
    // Even the old ciphertext put back cannot be read: the key went with it.
    localStorage.setItem(
      'bourse.remember',
      JSON.stringify({ user: '9876543210', timestamp: 1, secret: kept }),
    );
    expect(await recallPassword()).toBeNull();
    // Remembering again works with a new key.
    await remember('9876543210', 'other-pass');
    expect(await recallPassword()).toBe('other-pass');
  });
});
