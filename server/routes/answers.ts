import { Type } from '@sinclair/typebox';

/**
 * Schemas of the answers apps poll every few seconds (SPEC: account info 3 s, unread counts 10 s),
 * so Fastify serialises them with a compiled serializer instead of JSON.stringify. They mirror the
 * contract's answer types (src/shared/contract) and must name every field: a field left out here
 * would silently vanish from the answer (tests/server/account.test.ts checks user info's keys).
 */
const Money = Type.String();

export const ANSWERS = {
  userInfo: Type.Object({
    id: Type.Integer(),
    user: Type.String(),
    no: Type.String(),
    img: Type.Union([Type.String(), Type.Null()]),
    total: Money,
    money: Money,
    loan: Money,
    has_fund_password: Type.Boolean(),
    frozen: Type.Boolean(),
  }),
  balance: Type.Object({ balance: Money }),
  unreadCount: Type.Object({ unread_count: Type.Integer() }),
  notificationUnread: Type.Object({ unread_count: Type.Integer(), latest_id: Type.Integer() }),
  healthz: Type.Object({ ok: Type.Boolean() }),
};
