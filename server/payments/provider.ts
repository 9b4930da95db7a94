/**
 * A payment rail: it decides what became of a recharge (money in by bank transfer) or a withdrawal
 * (money out to a bank card) once its settlement time has come. The server only asks; the ledger
 * postings that follow are made by server/wallet/settlement.ts. A real rail (a bank's API, a payment
 * gateway's webhooks) implements the same interface.
 */
export type Outcome = 'settled' | 'failed' | 'pending';

interface DueRecharge {
  id: number;
  userId: number;
  /** Minor units. */
  amount: number;
}

export interface DueWithdrawal {
  id: number;
  userId: number;
  amount: number;
  card: { bankCard: string; ifsc: string; status: number };
}

export interface PaymentProvider {
  readonly name: string;
  recharge(r: DueRecharge): Promise<Outcome>;
  withdrawal(w: DueWithdrawal): Promise<Outcome>;
}
