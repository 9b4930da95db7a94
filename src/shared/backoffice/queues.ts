/** The work queue: every waiting item of every desk, and who has claimed it. */

import * as Type from '@sinclair/typebox';
import { OneOf, RowId, Strict, Text } from '../contract/schemas';
import { Empty, ops } from './define';

/** The queue item types, each with its target time. */
export const WORK_TYPES = [
  'kyc',
  'deposit',
  'withdrawal',
  'approval',
  'loan',
  'ipo',
  'chat',
  /** A control over a customer's account awaiting its second approval (ACCOUNT_ACTIONS). */
  'account',
] as const;
export type WorkType = (typeof WORK_TYPES)[number];

export interface QueueType {
  type: WorkType;
  count: number;
  oldestAt: number | null;
  /** How soon an item of this type should be taken up. */
  targetMs: number;
}
export interface QueueItem {
  type: WorkType;
  id: string;
  title: string;
  detail: string;
  /** The money the item is about (withdrawals, approvals, loans), as a decimal string. */
  amount: string | null;
  customerId: number | null;
  customerPhone: string | null;
  customerName: string | null;
  since: number;
  targetMs: number;
  claimedBy: { id: number; name: string } | null;
}
export interface Queues {
  now: number;
  types: QueueType[];
  /** Every type in one list, the most overdue (age ÷ target) first. */
  items: QueueItem[];
}

export const queueOps = {
  queues: ops<Queues>()({ method: 'GET', path: '/queues', cap: 'work', req: Empty }),
  /** The queue (every waiting item, most overdue first) as CSV. */
  queuesCsv: ops<Blob>()({ method: 'GET', path: '/queues/csv', cap: 'work', raw: true, req: Empty }),
  claim: ops<null>()({
    method: 'POST',
    path: '/queues/claim',
    cap: 'work',
    req: Strict({
      type: OneOf(WORK_TYPES),
      id: Text(32),
      staffId: Type.Optional(Type.Union([RowId, Type.Null()])),
    }),
  }),
} as const;
