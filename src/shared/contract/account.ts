import { Type } from '@sinclair/typebox';
import type { Money } from '../money';
import { endpoint } from './define';

/** Phone numbers and passwords are checked by shared/rules after the shape check. */
const Phone = Type.String({ maxLength: 32 });
const Password = Type.String({ maxLength: 128 });

export interface LoginAnswer {
  token: string;
  id: number;
  user: string;
  /** Time of this login (epoch ms). */
  login: number;
}

export interface UserInfo {
  id: number;
  user: string;
  /** Public id shown to the user. */
  no: string;
  img: string | null;
  /** Total assets: cash, frozen amounts, holdings at the server's prices, active fund principal. */
  total: Money;
  /** Available balance. */
  money: Money;
  /** Outstanding loan principal. */
  loan: Money;
  has_fund_password: boolean;
}

export const accountContract = {
  login: endpoint<LoginAnswer>()({
    method: 'POST',
    path: '/stock/user/login',
    auth: false,
    req: Type.Object({ user: Phone, password: Password }, { additionalProperties: false }),
  }),
  register: endpoint<{ id: number }>()({
    method: 'POST',
    path: '/stock/user/reg',
    auth: false,
    req: Type.Object(
      { user: Phone, password: Password, code: Type.String({ maxLength: 64 }) },
      { additionalProperties: false },
    ),
  }),
  forget: endpoint<null>()({
    method: 'POST',
    path: '/v2/user/forget',
    auth: false,
    req: Type.Object(
      { user: Phone, password: Password, new_password: Password },
      { additionalProperties: false },
    ),
  }),
  userInfo: endpoint<UserInfo>()({
    method: 'GET',
    path: '/stock/success/v2/user/info',
    auth: true,
    req: Type.Object({}),
  }),
  logout: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/user/logout',
    auth: true,
    req: Type.Object({}, { additionalProperties: false }),
  }),
};
