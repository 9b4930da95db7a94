import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  checkPasswordsMatch,
  checkPhone,
  checkRequired,
  checkTradePassword,
  digitsOnly,
  displayCode,
  parseWholeAmount,
  withdrawMinimum,
} from '#shared/rules';

describe('validation rules (SPEC §5)', () => {
  it('strips non-digits as a phone is typed and wants exactly 10', () => {
    expect(digitsOnly('98-765 43a210')).toBe('9876543210');
    expect(checkPhone('9876543210')).toBeNull();
    expect(checkPhone('987654321')).toBe('hint.phoneNumberInvalid');
    expect(checkPhone('98765432100')).toBe('hint.phoneNumberInvalid');
  });

  it('wants passwords of at least 6 that match their confirmation', () => {
    expect(checkPassword('12345')).toBe('hint.passwordTooShort');
    expect(checkPassword('123456')).toBeNull();
    expect(checkPasswordsMatch('abcdef', 'abcdeg')).toBe('hint.passwordNotMatch');
    expect(checkRequired('a', ' ')).toBe('hint.requiredFields');
  });

  it('wants a 6-digit transaction password', () => {
    expect(checkTradePassword('123456')).toBeNull();
    expect(checkTradePassword('12345a')).toBe('hint.tradePasswordInvalid');
  });

  it('reads typed amounts as whole positive numbers only', () => {
    expect(parseWholeAmount('5000')).toBe(5000);
    expect(parseWholeAmount('0')).toBeNull();
    expect(parseWholeAmount('12.5')).toBeNull();
  });

  it('settles the withdraw minimum as the larger of 10 and the configured value', () => {
    expect(withdrawMinimum(undefined)).toBe(100);
    expect(withdrawMinimum(5)).toBe(10);
    expect(withdrawMinimum(250)).toBe(250);
  });

  it('drops .NS and .BO for display', () => {
    expect(displayCode('RELIANCE.NS')).toBe('RELIANCE');
    expect(displayCode('INFY.BO')).toBe('INFY');
    expect(displayCode('AAPL')).toBe('AAPL');
  });

  it('drops the provider marks no trader writes: =X, =F and a leading ^', () => {
    expect(displayCode('USDINR=X')).toBe('USDINR');
    expect(displayCode('GC=F')).toBe('GC');
    expect(displayCode('^NSEI')).toBe('NSEI');
    expect(displayCode('BRK-B')).toBe('BRK-B');
  });
});
