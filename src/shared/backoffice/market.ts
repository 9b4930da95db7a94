/** The market desk: IPO allotment (proposed by one member, run by another) and the FX rate. */

import { RowId, Strict } from '../contract/schemas';
import { Decimal, Empty, Override, ops } from './define';

export interface AllotmentLine {
  orderId: number;
  userId: number;
  phone: string;
  applied: number;
  allotted: number;
  frozen: string;
  charged: string;
  refund: string;
}
export interface AllotmentPreview {
  ipoId: number;
  symbol: string;
  ratio: string;
  lines: AllotmentLine[];
  totals: { applications: number; applied: number; allotted: number; charged: string; refund: string };
  proposal: {
    id: number;
    ratio: string;
    proposedBy: string;
    proposedName: string;
    proposedAt: number;
    intact: boolean;
  } | null;
}
export interface IpoRow {
  id: number;
  symbol: string;
  company: string;
  status: string;
  issueEnd: number;
  pendingApplications: number;
  pendingShares: number;
  frozen: string;
  proposal: AllotmentPreview['proposal'];
}

export interface FxState {
  source: string;
  rate: string | null;
  fresh: boolean;
  configured: string | null;
  configuredAt: number | null;
  /** The configured rate's distance from the live rate in use (basis points of it); null: not live. */
  gapBps: number | null;
}
export interface FxPreview {
  current: FxState;
  next: string;
  /** What a US$1,000 order and the customers' US holdings are worth at each rate. */
  example: { usd: string; now: string | null; next: string };
  holdings: { now: string | null; next: string };
  changeBps: number | null;
}

export const marketOps = {
  ipos: ops<IpoRow[]>()({ method: 'GET', path: '/ipos', cap: 'work', req: Empty }),
  ipoPreview: ops<AllotmentPreview>()({
    method: 'GET',
    path: '/ipos/preview',
    cap: 'work',
    req: Strict({ id: RowId, ratio: Decimal }),
  }),
  ipoPropose: ops<AllotmentPreview>()({
    method: 'POST',
    path: '/ipos/propose',
    cap: 'pay',
    req: Strict({ id: RowId, ratio: Decimal }),
  }),
  ipoRun: ops<{ allotted: number; refunded: number }>()({
    method: 'POST',
    path: '/ipos/run',
    cap: 'approve',
    stepUp: true,
    req: Strict({ id: RowId, proposal: RowId, override: Override }),
  }),

  fx: ops<FxState>()({ method: 'GET', path: '/fx', cap: 'work', req: Empty }),
  fxPreview: ops<FxPreview>()({
    method: 'GET',
    path: '/fx/preview',
    cap: 'approve',
    req: Strict({ rate: Decimal }),
  }),
  fxSet: ops<FxState>()({
    method: 'POST',
    path: '/fx',
    cap: 'approve',
    stepUp: true,
    req: Strict({ rate: Decimal }),
  }),
} as const;
