import * as Type from '@sinclair/typebox';
import type { KycStatus } from '../status';
import { endpoint } from './define';
import { NoQuery, RowId, Strict, Text, TradeCode } from './schemas';

/** Login and transaction passwords, bank cards, real-name verification and its uploads. */

/** SPEC §3 Bank card; `bank_card` is masked except its last 4 digits in lists. */
export interface BankCard {
  id: number;
  bank: string;
  branch_bank: string;
  bank_card: string;
  bank_user: string;
  ifsc: string;
  created_at: number;
  /** 1 usable. */
  status: number;
}

export type IdType = 'idCard' | 'driver' | 'passport' | 'other';

/** Real-name state: status 0 none, 1 under review, 2 approved, 3 rejected (form editable again). */
export interface KycState {
  status: KycStatus;
  real_name: string | null;
  id_type: IdType | null;
  /** Masked except its last 4 characters. */
  id_number: string | null;
  note: string | null;
  /**
   * Why it was rejected: a code of KYC_REJECTION_REASONS the app words in the user's
   * language (`photos`: new photos are needed); `note` is the reviewer's own words, if any.
   */
  reason: string | null;
}

const BankFields = {
  bank: Text(80),
  branch_bank: Text(120),
  bank_card: Type.String({ minLength: 6, maxLength: 34 }),
  bank_user: Text(80),
  ifsc: Type.String({ minLength: 4, maxLength: 20 }),
  /** The transaction password: a card change redirects payouts. */
  stock_password: Type.Optional(TradeCode),
};

export const settingsContract = {
  /**
   * SPEC `password/up`: the login password (`password` → `password_new`, ending other sessions),
   * or with `type: 'transaction'` the 6-digit transaction password — first set (`is_first`, just
   * `fund_code_new`) or changed (`fund_code` → `fund_code_new`). Where the account has a second
   * factor, a new login password and the first transaction password take the session's fresh
   * step-up (`stepUp` in security.ts).
   */
  passwordUp: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/user/password/up',
    auth: true,
    req: Type.Union([
      Strict({
        type: Type.Optional(Type.Literal('login')),
        password: Type.String({ maxLength: 128 }),
        password_new: Type.String({ maxLength: 128 }),
      }),
      Strict({
        type: Type.Literal('transaction'),
        is_first: Type.Optional(Type.Boolean()),
        fund_code: Type.Optional(Type.String({ maxLength: 16 })),
        fund_code_new: Type.String({ maxLength: 16 }),
      }),
    ]),
  }),
  bankList: endpoint<BankCard[]>()({
    method: 'GET',
    path: '/stock/success/bank/list',
    auth: true,
    req: Type.Object({ type: Type.Optional(Type.String({ maxLength: 16 })) }),
  }),
  bankAdd: endpoint<BankCard>()({
    method: 'POST',
    path: '/stock/success/bank/add',
    auth: true,
    tradePassword: true,
    stepUp: true,
    req: Strict(BankFields),
  }),
  bankEdit: endpoint<BankCard>()({
    method: 'POST',
    path: '/stock/success/bank/edit',
    auth: true,
    tradePassword: true,
    stepUp: true,
    req: Strict({
      id: RowId,
      type: Type.Optional(Type.String({ maxLength: 16 })),
      ...BankFields,
    }),
  }),
  /**
   * One identity photo (JPEG, PNG or WebP by content, at most 2 MB) in the multipart field `file`.
   * Answers its id and its url: `GET <url>` with the `token` header returns the image bytes to
   * its owner only (anyone else: notFound). The KYC form sends either back.
   */
  upload: endpoint<{ url: string; id: string }>()({
    method: 'POST',
    path: '/stock/success/upload',
    auth: true,
    upload: true,
    req: Type.Object({}),
  }),
  kycSubmit: endpoint<KycState>()({
    method: 'POST',
    path: '/stock/success/autonomy/add',
    auth: true,
    req: Strict({
      real_name: Text(80),
      /** Omitted by SPEC's own client: the server reads it as `idCard`. */
      id_type: Type.Optional(
        Type.Union([
          Type.Literal('idCard'),
          Type.Literal('driver'),
          Type.Literal('passport'),
          Type.Literal('other'),
        ]),
      ),
      id_number: Text(40),
      id_number_img: Text(200),
      id_number_img_two: Text(200),
    }),
  }),
  kycState: endpoint<KycState>()({
    method: 'GET',
    path: '/stock/success/autonomy/state',
    auth: true,
    req: NoQuery,
  }),
};
