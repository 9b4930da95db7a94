import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { sql } from 'kysely';
import type { AuditRow, KycCase, KycFlag } from '#shared/backoffice';
import { KYC_STATUS } from '#shared/status';
import { caseRow } from '../account/kyc-review';
import type { Deps } from '../deps';
import { notFound } from '../lib/errors';
import { isUploadId, sniffImage, uploadPath } from '../lib/uploads';
import { auditRows } from './audit-view';
import { claimOf } from './queues';

/**
 * Real-name review as the officer sees it: the case (fields in full, both photos, its history and
 * who claimed it); the decisions are account/kyc-review.ts. The case carries what the officer must not miss (`flags`): the same picture sent as front and
 * back, and an ID number already approved — or under review — for another customer.
 */

/** An ID number as compared: upper case, without spaces or dashes (migration 073's index). */
const normalisedId = sql<string>`upper(replace(replace(kyc.id_number, ' ', ''), '-', ''))`;
const normalise = (id: string) => id.toUpperCase().replace(/[\s-]/g, '');

async function photoDigest(deps: Deps, id: string | null): Promise<string | null> {
  if (!id || !isUploadId(id)) return null;
  try {
    return createHash('sha256')
      .update(await fs.readFile(uploadPath(deps.config.uploadsDir, id)))
      .digest('hex');
  } catch {
    return null;
  }
}

/** What the officer must see before deciding (empty: nothing found). */
async function flagsOf(
  deps: Deps,
  row: { user_id: number; id_number: string; id_number_img: string | null; id_number_img_two: string | null },
): Promise<KycFlag[]> {
  const flags: KycFlag[] = [];
  const [front, back] = await Promise.all([
    photoDigest(deps, row.id_number_img),
    photoDigest(deps, row.id_number_img_two),
  ]);
  if (
    row.id_number_img !== null &&
    (row.id_number_img === row.id_number_img_two || (front !== null && front === back))
  )
    flags.push({ code: 'samePhoto' });
  const others = await deps.database.db
    .selectFrom('kyc')
    .select(['kyc.user_id', 'kyc.real_name', 'kyc.status'])
    .where(normalisedId, '=', normalise(row.id_number))
    .where('kyc.user_id', '!=', row.user_id)
    .where('kyc.status', 'in', [KYC_STATUS.approved, KYC_STATUS.underReview])
    .orderBy('kyc.user_id')
    .limit(20)
    .execute();
  for (const status of [KYC_STATUS.approved, KYC_STATUS.underReview]) {
    const same = others
      .filter((o) => o.status === status)
      .map((o) => ({ userId: o.user_id, name: o.real_name }));
    if (same.length > 0)
      flags.push({
        code: status === KYC_STATUS.approved ? 'idNumberApproved' : 'idNumberInReview',
        customers: same,
      });
  }
  return flags;
}

export async function kycCase(deps: Deps, userId: number): Promise<KycCase> {
  const { db } = deps.database;
  const row = await caseRow(db, userId);
  if (!row) throw notFound();
  const history: AuditRow[] = await auditRows(db, { customer: userId, actionPrefix: 'kyc:' });
  return {
    userId: row.user_id,
    phone: row.phone,
    status: row.status,
    realName: row.real_name,
    idType: row.id_type,
    idNumber: row.id_number,
    submittedAt: row.updated_at,
    firstSubmittedAt: row.created_at,
    reason: row.reason,
    note: row.note,
    history,
    claimedBy: await claimOf(db, 'kyc', String(userId)),
    flags: await flagsOf(deps, row),
  };
}

/** Every case under review, oldest first. */
export async function kycCases(deps: Deps): Promise<KycCase[]> {
  const rows = await deps.database.db
    .selectFrom('kyc')
    .select('user_id')
    .where('status', '=', KYC_STATUS.underReview)
    .orderBy('updated_at')
    .limit(200)
    .execute();
  return Promise.all(rows.map((r) => kycCase(deps, r.user_id)));
}

/**
 * One of a case's photos, for staff with the KYC role only (the gateway checked). The bytes are
 * sniffed again as they leave: only JPEG, PNG or WebP is ever answered, with that type — never an
 * SVG or anything a browser could run — whatever the file on disk has become.
 */
export async function kycPhoto(
  deps: Deps,
  userId: number,
  side: 'front' | 'back',
): Promise<{ mime: string; bytes: Buffer }> {
  const row = await deps.database.db
    .selectFrom('kyc')
    .select(['id_number_img', 'id_number_img_two'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const id = side === 'front' ? row?.id_number_img : row?.id_number_img_two;
  if (!id || !isUploadId(id)) throw notFound();
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(uploadPath(deps.config.uploadsDir, id));
  } catch {
    throw notFound();
  }
  const mime = sniffImage(bytes);
  if (!mime) throw notFound();
  return { mime, bytes };
}
