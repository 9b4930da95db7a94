import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { IdType, KycState } from '#shared/contract/settings';
import { checkRequired } from '#shared/rules';
import { KYC_STATUS } from '#shared/status';
import type { Deps } from '../deps';
import { withinCap } from '../lib/caps';
import { ApiError, conflict, invalid, notFound, refuseFirst } from '../lib/errors';
import { maskTail } from '../lib/mask';
import {
  isUploadId,
  newUploadId,
  sniffImage,
  UPLOADS_PER_USER,
  uploadIdFrom,
  uploadPath,
  uploadUrl,
} from '../lib/uploads';

/**
 * Real-name verification (SPEC §5): identity photos uploaded by their owner (images only, sniffed
 * from their bytes, at most UPLOADS_PER_USER kept), then a form the operator reviews. A form under
 * review or approved is never overwritten; a rejected one may be sent again.
 */

/** Identity numbers of every id type: letters, digits, spaces and dashes. */
const ID_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{2,38}[A-Za-z0-9]$/;

/** Multipart limits that end in 413 (a file or a form over its limit); other parse errors are 400. */
const MULTIPART_TOO_LARGE = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_PARTS_LIMIT',
  'FST_FILES_LIMIT',
  'FST_FIELDS_LIMIT',
]);

/**
 * The bytes of the one part of the form, a file named `file` (the app's FormData holds exactly
 * that; a second file or any other field makes the form ambiguous, so it is refused). Everything
 * that can fail here is the request's own multipart encoding (no boundary, a truncated or
 * malformed part, a limit, a client that went away), so every failure is the caller's: a 4xx,
 * never the 500 of an unknown error.
 */
export async function readUploadedFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw invalid('errors.uploadMissing');
  try {
    let bytes: Buffer | null = null;
    for await (const part of req.parts()) {
      if (bytes || part.type !== 'file' || part.fieldname !== 'file') throw invalid('errors.uploadMissing');
      bytes = await part.toBuffer();
    }
    if (!bytes) throw invalid('errors.uploadMissing');
    return bytes;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (MULTIPART_TOO_LARGE.has((err as { code?: string }).code ?? ''))
      throw new ApiError('errors.tooLarge', 413);
    throw invalid('errors.uploadMissing');
  }
}

/** Keeps an uploaded image for its owner; answers its id and the url it is read back from. */
export async function storeUpload(
  deps: Deps,
  userId: number,
  bytes: Buffer,
): Promise<{ id: string; url: string }> {
  const mime = sniffImage(bytes);
  if (!mime) throw invalid('errors.notAnImage');
  const id = newUploadId();
  // The row first, counted and written in one locked step (lib/caps.ts): a burst of parallel
  // uploads cannot each find room. The file is written after; if that fails the row goes again.
  await withinCap(
    deps.database,
    userId,
    {
      max: UPLOADS_PER_USER,
      count: async (trx) =>
        Number(
          (
            await trx
              .selectFrom('uploads')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      refusal: () => conflict('errors.uploadLimit'),
    },
    (trx) =>
      trx
        .insertInto('uploads')
        .values({ id, user_id: userId, mime, size: bytes.length, created_at: deps.clock.now() })
        .execute(),
  );
  const dir = deps.config.uploadsDir;
  const file = uploadPath(dir, id);
  try {
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    await fs.rm(file, { force: true });
    await deps.database.db.deleteFrom('uploads').where('id', '=', id).execute();
    throw err;
  }
  return { id, url: uploadUrl(deps.config.apiBase, id) };
}

/** An upload read back by its owner; anyone else, or a missing file, is notFound. */
export async function readUpload(
  deps: Deps,
  userId: number,
  id: string,
): Promise<{ mime: string; bytes: Buffer }> {
  if (!isUploadId(id)) throw notFound();
  const row = await deps.database.db
    .selectFrom('uploads')
    .select('mime')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound();
  try {
    return { mime: row.mime, bytes: await fs.readFile(uploadPath(deps.config.uploadsDir, id)) };
  } catch {
    throw notFound();
  }
}

export async function kycState(deps: Deps, userId: number): Promise<KycState> {
  const row = await deps.database.db
    .selectFrom('kyc')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row)
    return {
      status: KYC_STATUS.none,
      real_name: null,
      id_type: null,
      id_number: null,
      note: null,
      reason: null,
    };
  return {
    status: row.status as KycState['status'],
    real_name: row.real_name,
    id_type: row.id_type as IdType,
    id_number: maskTail(row.id_number),
    note: row.note,
    reason: row.reason,
  };
}

export interface KycInput {
  real_name: string;
  id_type?: IdType;
  id_number: string;
  id_number_img: string;
  id_number_img_two: string;
}

/** Sends the form for review; the photos must be the user's own uploads. */
export async function submitKyc(deps: Deps, userId: number, input: KycInput): Promise<KycState> {
  const { db } = deps.database;
  const realName = input.real_name.trim();
  const idNumber = input.id_number.trim().toUpperCase();
  refuseFirst(checkRequired(realName, idNumber), ID_NUMBER.test(idNumber) ? null : 'errors.idNumberInvalid');
  const front = uploadIdFrom(input.id_number_img);
  const back = uploadIdFrom(input.id_number_img_two);
  if (!front || !back) throw invalid('errors.kycPhotoMissing');
  const owned = await db
    .selectFrom('uploads')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', 'in', [front, back])
    .execute();
  if (owned.length !== new Set([front, back]).size) throw notFound();
  const now = deps.clock.now();
  const values = {
    real_name: realName,
    id_type: input.id_type ?? 'idCard',
    id_number: idNumber,
    id_number_img: front,
    id_number_img_two: back,
    status: KYC_STATUS.underReview,
    note: null,
    reason: null,
    updated_at: now,
  };
  // One statement decides: a form under review (1) or approved (2) is never overwritten.
  const written = await db
    .insertInto('kyc')
    .values({ user_id: userId, ...values, created_at: now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet(values)
        .where('kyc.status', 'not in', [KYC_STATUS.underReview, KYC_STATUS.approved]),
    )
    .executeTakeFirst();
  if (Number(written.numInsertedOrUpdatedRows ?? 0n) === 0) throw conflict('errors.kycLocked');
  return kycState(deps, userId);
}
