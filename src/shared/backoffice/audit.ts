/** The audit log: its rows, filtered and as CSV, the chain's check and the ledger's. */

import * as Type from '@sinclair/typebox';
import { Epoch, RowId, Strict, Text } from '../contract/schemas';
import { Empty, ops } from './define';

export interface AuditRow {
  seq: number;
  at: number;
  actor: string;
  actorName: string;
  role: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  customerId: number | null;
  before: unknown;
  after: unknown;
  reason: string | null;
  hash: string;
}

const Optional = Type.Optional;
const AuditFilter = {
  actor: Optional(Text(80)),
  action: Optional(Text(80)),
  customer: Optional(RowId),
  from: Optional(Epoch),
  to: Optional(Epoch),
};

export const auditOps = {
  audit: ops<{ rows: AuditRow[]; next: number | null }>()({
    method: 'GET',
    path: '/audit',
    cap: 'audit',
    req: Strict({ ...AuditFilter, before: Optional(RowId) }),
  }),
  auditCsv: ops<Blob>()({
    method: 'GET',
    path: '/audit/csv',
    cap: 'audit',
    raw: true,
    req: Strict(AuditFilter),
  }),
  auditVerify: ops<{
    entries: number;
    ok: boolean;
    brokenAt: number | null;
    problem: string | null;
    problems: string[];
    signedHead: { seq: number; at: number } | null;
    unsealed: number;
  }>()({ method: 'GET', path: '/audit/verify', cap: 'audit', req: Empty }),
  ledgerAudit: ops<{ ok: boolean; text: string; problems: number }>()({
    method: 'POST',
    path: '/audit/ledger',
    cap: 'audit',
    req: Empty,
  }),
} as const;
