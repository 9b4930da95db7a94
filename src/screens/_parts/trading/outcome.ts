import { PATHS } from '../../../paths';
import type { OrderRow } from '../../../shared/contract/trading';
import { BLOCK_STATUS, IPO_STATUS, STOCK_STATUS } from '../../../shared/status';
import type { Tone } from '../../../ui';

/**
 * What became of an order, read from the server's status only (DESIGN rule 8): every place that
 * says how an order ended — the result sheet, the order row, its detail — asks this, so a
 * cancelled IOC can never read as filled. Each mold keeps its own status numbers (#shared/status).
 */
export type Outcome = 'filled' | 'pending' | 'cancelled' | 'expired' | 'rejected';

export function orderOutcome(o: Pick<OrderRow, 'mold' | 'state' | 'status'>): Outcome {
  if (o.mold === 'stock') {
    switch (o.status) {
      case STOCK_STATUS.pending:
        return 'pending';
      case STOCK_STATUS.success:
        return 'filled';
      case STOCK_STATUS.cancelled:
        return 'cancelled';
      case STOCK_STATUS.expired:
        return 'expired';
      default:
        return 'rejected';
    }
  }
  if (o.mold === 'ipo' && o.state === 'buy') {
    // An application waits for allotment; a refunded one got nothing.
    if (o.status === IPO_STATUS.pending) return 'pending';
    return o.status === IPO_STATUS.allotted ? 'filled' : 'cancelled';
  }
  // Block/QIP buys and every lot sale happen at once, or are refused.
  return o.status === BLOCK_STATUS.success ? 'filled' : 'rejected';
}

/** How an outcome reads: its status word, its sheet title and the chip's tint (never the meaning alone). */
export const OUTCOME: Record<Outcome, { status: string; title: string; tone: Tone }> = {
  filled: { status: 'records.status.success', title: 'trade.result.filledTitle', tone: 'success' },
  pending: { status: 'records.status.pending', title: 'trade.result.pendingTitle', tone: 'warn' },
  cancelled: { status: 'records.status.cancelled', title: 'trade.result.cancelledTitle', tone: 'muted' },
  expired: { status: 'records.status.expired', title: 'trade.result.expiredTitle', tone: 'muted' },
  rejected: { status: 'records.status.failed', title: 'trade.result.rejectedTitle', tone: 'danger' },
};

/** The units an order has filled: orders here fill whole or not at all. */
export function filledQuantity(o: Pick<OrderRow, 'mold' | 'state' | 'status' | 'count'>): number {
  return orderOutcome(o) === 'filled' ? o.count : 0;
}

/**
 * Why an order ended without filling, as an i18n key: the server's reason (a refused lot, an IOC
 * that could not fill), else what its status says.
 */
export function outcomeReason(o: Pick<OrderRow, 'mold' | 'state' | 'status' | 'reason' | 'validity'>) {
  if (o.reason) return o.reason;
  const outcome = orderOutcome(o);
  // An application nothing was allotted to ends without the user asking: it is no cancel of theirs.
  if (outcome === 'cancelled' && o.mold === 'ipo') return 'records.notAllotted';
  if (outcome === 'cancelled')
    return o.validity === 'ioc' ? 'errors.iocUnfilled' : 'trade.result.cancelledHint';
  if (outcome === 'expired') return 'trade.result.expiredHint';
  return null;
}

/**
 * Whether an order has a contract note (server/trading/records.ts `contractNote`): every trade
 * that executed — a stock order, a block/QIP buy, a lot's sale. An IPO allotment is no trade.
 */
export function hasContractNote(o: Pick<OrderRow, 'mold' | 'state' | 'status'>): boolean {
  return orderOutcome(o) === 'filled' && !(o.mold === 'ipo' && o.state === 'buy');
}

/** The orders screen of an order's mold. */
export function ordersPathOf(o: Pick<OrderRow, 'mold'>): string {
  switch (o.mold) {
    case 'ipo':
      return PATHS.ipoOrders;
    case 'bulk':
      return PATHS.blockOrders;
    case 'finalize':
      return PATHS.qipOrders;
    default:
      return PATHS.records;
  }
}
