import { describe, expect, it } from 'vitest';
import { fitWithin, IMAGE_MAX_BYTES } from '#shared/rules';
import { checkCardForm, EMPTY_CARD } from '../../src/screens/BankCards/useBankCards';
import { newestUnread } from '../../src/screens/CustomerService/useCustomerService';
import {
  canSaveLoginPassword,
  checkLoginPasswordForm,
} from '../../src/screens/LoginPassword/useLoginPassword';
import { newsPaging, pageCount } from '../../src/screens/News/useNews';
import { checkKycForm, isLocked } from '../../src/screens/RealName/useRealName';
import { cardLastFour, maskCardNumber } from '../../src/shared/format';
import { type Encoder, prepareImage } from '../../workers/images';

describe('login password form (SPEC §5)', () => {
  it('gives the SPEC message for each missing or wrong field', () => {
    expect(checkLoginPasswordForm({ current: '', next: '', confirm: '' })).toEqual({
      current: 'loginPassword.currentRequired',
      next: 'loginPassword.newRequired',
      confirm: 'tradePassword.confirmRequired',
    });
    expect(checkLoginPasswordForm({ current: 'old', next: 'abc', confirm: 'abd' })).toEqual({
      next: 'hint.passwordTooShort',
      confirm: 'hint.passwordNotMatch',
    });
    expect(checkLoginPasswordForm({ current: 'old', next: 'abcdef', confirm: 'abcdef' })).toEqual({});
  });

  it('enables save only when all three are filled and new equals confirm', () => {
    expect(canSaveLoginPassword({ current: '', next: 'abcdef', confirm: 'abcdef' })).toBe(false);
    expect(canSaveLoginPassword({ current: 'x', next: 'abcdef', confirm: 'abcdeg' })).toBe(false);
    // Too short still enables save: pressing it is what shows the length message.
    expect(canSaveLoginPassword({ current: 'x', next: 'abc', confirm: 'abc' })).toBe(true);
  });
});

describe('bank card form', () => {
  const good = {
    bank: 'State Bank of India',
    branch_bank: 'Powai',
    bank_card: '1234 5678 9012',
    bank_user: 'Asha Verma',
    ifsc: 'sbin0001234',
  };
  it('requires every field, then checks the number and the branch code', () => {
    expect(Object.values(checkCardForm(EMPTY_CARD, 'INR'))).toEqual(Array(5).fill('bankCards.required'));
    expect(checkCardForm(good, 'INR')).toEqual({});
    expect(checkCardForm({ ...good, bank_card: '1234' }, 'INR')).toEqual({
      bank_card: 'errors.bankCardInvalid',
    });
    expect(checkCardForm({ ...good, ifsc: 'SBIN123' }, 'INR')).toEqual({ ifsc: 'errors.ifscInvalid' });
    // Outside India the field is a SWIFT/BIC or routing number.
    expect(checkCardForm({ ...good, ifsc: 'CHASUS33' }, 'USD')).toEqual({});
  });
  it('shows the last four digits of a masked number', () => {
    expect(cardLastFour('********3456')).toBe('3456');
    // One masking style for every screen, whatever the server's mask or the number's length.
    expect(maskCardNumber('********3456')).toBe('•••• 3456');
    expect(maskCardNumber('12345678901234563456')).toBe('•••• 3456');
    expect(maskCardNumber('5001 0002 0002')).toBe('•••• 0002');
  });
});

describe('real-name', () => {
  const photo = (url: string | null) => ({ url, preview: null, progress: null, error: null });
  it('locks under review and approved only', () => {
    expect([0, 1, 2, 3].map((s) => isLocked(s as 0 | 1 | 2 | 3))).toEqual([false, true, true, false]);
    expect(isLocked(undefined)).toBe(false);
  });
  it('asks for both photos with the SPEC message', () => {
    expect(checkKycForm({ name: ' ', idType: 'idCard', idNumber: '' }, photo(null), photo('/u/1'))).toEqual({
      name: 'realName.nameRequired',
      idNumber: 'realName.idRequired',
      front: 'errors.kycPhotoMissing',
    });
  });
});

describe('identity photos (SPEC §5: 1200×1200, quality 0.8, under 1 MB)', () => {
  it('scales down to fit, never up, keeping the aspect', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 1200, height: 900 });
    expect(fitWithin(1000, 2400)).toEqual({ width: 500, height: 1200 });
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });

  /** An encoder whose output size falls with quality, recording what it was asked. */
  function fakeEncoder(bytesAt: (q: number) => number, fail = false) {
    const calls: Array<{ w: number; h: number; q: number }> = [];
    let closed = 0;
    const encoder: Encoder = {
      async decode() {
        if (fail) throw new Error('not an image');
        return { width: 3000, height: 2000, source: 'bitmap', close: () => void closed++ };
      },
      async encode(_s, w, h, q) {
        calls.push({ w, h, q });
        return new Blob([new Uint8Array(bytesAt(q))], { type: 'image/jpeg' });
      },
    };
    return { encoder, calls, closed: () => closed };
  }

  it('encodes once at 0.8 when that is under 1 MB', async () => {
    const f = fakeEncoder(() => 200_000);
    const r = await prepareImage(new Blob([], { type: 'image/png' }), f.encoder);
    expect(r.ok && { w: r.data.width, h: r.data.height, q: r.data.quality }).toEqual({
      w: 1200,
      h: 800,
      q: 0.8,
    });
    expect(f.calls).toHaveLength(1);
    expect(f.closed()).toBe(1);
  });

  it('steps the quality down while the result is over 1 MB', async () => {
    const f = fakeEncoder((q) => (q > 0.55 ? IMAGE_MAX_BYTES + 1 : IMAGE_MAX_BYTES));
    const r = await prepareImage(new Blob([], { type: 'image/jpeg' }), f.encoder);
    expect(f.calls.map((c) => c.q)).toEqual([0.8, 0.7, 0.6, 0.5]);
    expect(r.ok && r.data.quality).toBe(0.5);
  });

  it('refuses what is not an image, by type or by failing to decode', async () => {
    const f = fakeEncoder(() => 1, true);
    expect(await prepareImage(new Blob(['x'], { type: 'text/plain' }), f.encoder)).toMatchObject({
      ok: false,
      error: 'errors.notAnImage',
    });
    expect(await prepareImage(new Blob(['x'], { type: 'image/png' }), f.encoder)).toMatchObject({
      ok: false,
      error: 'errors.notAnImage',
    });
  });
});

describe('news paging', () => {
  it('reads page and size from the address with SPEC defaults', () => {
    expect(newsPaging(new URLSearchParams(''))).toEqual({ page: 1, size: 10 });
    expect(newsPaging(new URLSearchParams('page=3&size=30'))).toEqual({ page: 3, size: 30 });
    expect(newsPaging(new URLSearchParams('page=-1&size=25'))).toEqual({ page: 1, size: 10 });
  });
  it('counts pages', () => {
    expect([0, 10, 11, 50].map((n) => pageCount(n, 10))).toEqual([1, 1, 2, 5]);
  });
});

describe('chat read marks', () => {
  it('finds the newest unread agent message', () => {
    expect(
      newestUnread([
        { id: 1, sender: 'agent', read_at: null },
        { id: 2, sender: 'user', read_at: null },
        { id: 3, sender: 'agent', read_at: 5 },
      ]),
    ).toBe(1);
    expect(newestUnread([{ id: 2, sender: 'user', read_at: null }])).toBeNull();
  });
});
