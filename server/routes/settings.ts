import fs from 'node:fs/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import { CONFIG_TAGS } from '#shared/contract/config';
import { contract } from '#shared/contract/index';
import type { BankCard, IdType, KycState } from '#shared/contract/settings';
import {
  checkBankCardNumber,
  checkBranchCode,
  checkPassword,
  checkRequired,
  checkTradePassword,
  compactCode,
} from '#shared/rules';
import { BANK_CARD_STATUS, KYC_STATUS, WITHDRAW_STATUS } from '#shared/status';
import { setFundPassword, verifyFundPassword } from '../account/fund-password';
import { verifyUnderLoginLimit } from '../account/login-limit';
import { withTx } from '../db/index';
import type { BankCardsTable, DB } from '../db/schema';
import { authenticate, sha256, tokenOf } from '../lib/auth';
import { isUniqueViolation } from '../lib/db-errors';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { maskTail } from '../lib/mask';
import { hashSecret, verifySecret } from '../lib/passwords';
import { route } from '../lib/route';
import {
  isUploadId,
  newUploadId,
  sniffImage,
  UPLOAD_MAX_BYTES,
  UPLOADS_PER_USER,
  uploadIdFrom,
  uploadPath,
  uploadUrl,
} from '../lib/uploads';

/** Cards one user may register. */
export const BANK_CARDS_PER_USER = 10;
/** Identity numbers of every id type: letters, digits, spaces and dashes. */
const ID_NUMBER = /^[A-Za-z0-9][A-Za-z0-9 -]{2,38}[A-Za-z0-9]$/;

function check(...keys: Array<string | null>): void {
  const key = keys.find((k) => k !== null);
  if (key) throw invalid(key);
}

function bankCard(row: Selectable<BankCardsTable>): BankCard {
  return {
    id: row.id,
    bank: row.bank,
    branch_bank: row.branch_bank,
    bank_card: maskTail(row.bank_card),
    bank_user: row.bank_user,
    ifsc: row.ifsc,
    created_at: row.created_at,
    status: row.status,
  };
}

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
async function readUploadedFile(req: FastifyRequest): Promise<Buffer> {
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

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;
  // Scoped to this plugin: no other route accepts multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });

  route(app, contract.passwordUp, async ({ input, user, req }) => {
    if (input.type === 'transaction') {
      if (input.is_first) {
        const set = await setFundPassword(deps, db, user.id, input.fund_code_new, { onlyIfUnset: true });
        if (!set) throw conflict('errors.fundPasswordAlreadySet');
        return null;
      }
      // Checked before the old code so a malformed new one never costs an attempt.
      check(checkRequired(input.fund_code ?? ''), checkTradePassword(input.fund_code_new));
      await verifyFundPassword(deps, user.id, input.fund_code);
      await setFundPassword(deps, db, user.id, input.fund_code_new);
      return null;
    }
    check(checkRequired(input.password, input.password_new), checkPassword(input.password_new));
    // The current password is guessed against the login limit, so a stolen session cannot
    // brute-force it.
    const hashing = hashQueue(deps.config);
    const right = await verifyUnderLoginLimit(deps, user.phone, req.ip, async () => {
      const row = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return hashing.run(() => verifySecret(input.password, row.password_hash));
    });
    if (!right) throw invalid('errors.oldPasswordIncorrect');
    const hash = await hashing.run(() => hashSecret(input.password_new, deps.config.scrypt));
    const keep = sha256(tokenOf(req) ?? '');
    await withTx(deps.database, async (trx) => {
      await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
      // Every other device must log in again with the new password; this one stays.
      await trx
        .updateTable('sessions')
        .set({ revoked_at: deps.clock.now() })
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .where('token_hash', '!=', keep)
        .execute();
    });
    return null;
  });

  /** Trimmed, compacted card fields, or the key of the first problem. */
  async function cardFields(input: {
    bank: string;
    branch_bank: string;
    bank_card: string;
    bank_user: string;
    ifsc: string;
  }) {
    const fields = {
      bank: input.bank.trim(),
      branch_bank: input.branch_bank.trim(),
      bank_card: compactCode(input.bank_card),
      bank_user: input.bank_user.trim(),
      ifsc: compactCode(input.ifsc),
    };
    const unit = await db
      .selectFrom('config')
      .select('value')
      .where('tag', '=', CONFIG_TAGS.currencyUnit)
      .executeTakeFirst();
    check(
      checkRequired(fields.bank, fields.branch_bank, fields.bank_card, fields.bank_user, fields.ifsc),
      checkBankCardNumber(fields.bank_card),
      checkBranchCode(fields.ifsc, unit?.value ?? 'INR'),
    );
    return fields;
  }

  route(app, contract.bankList, async ({ user }) => {
    const rows = await db
      .selectFrom('bank_cards')
      .selectAll()
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    return rows.map(bankCard);
  });

  route(app, contract.bankAdd, async ({ input, user }) => {
    const fields = await cardFields(input);
    const owned = await db
      .selectFrom('bank_cards')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    if (Number(owned.n) >= BANK_CARDS_PER_USER) throw conflict('errors.bankCardLimit');
    const now = deps.clock.now();
    return bankCard(
      await uniqueCard(
        db
          .insertInto('bank_cards')
          .values({
            user_id: user.id,
            ...fields,
            status: BANK_CARD_STATUS.usable,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    );
  });

  route(app, contract.bankEdit, async ({ input, user }) => {
    const fields = await cardFields(input);
    const card = await db
      .selectFrom('bank_cards')
      .select('id')
      .where('id', '=', input.id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!card) throw notFound();
    // A payout on its way keeps the card it was sent to.
    const paying = await db
      .selectFrom('withdrawals')
      .select('id')
      .where('bank_id', '=', card.id)
      .where('status', '=', WITHDRAW_STATUS.inProgress)
      .executeTakeFirst();
    if (paying) throw conflict('errors.bankCardInUse');
    return bankCard(
      await uniqueCard(
        db
          .updateTable('bank_cards')
          .set({ ...fields, updated_at: deps.clock.now() })
          .where('id', '=', card.id)
          .where('user_id', '=', user.id)
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),
    );
  });

  route(app, contract.upload, async ({ req, user }) => {
    if (!req.isMultipart()) throw invalid('errors.uploadMissing');
    const bytes = await readUploadedFile(req);
    const mime = sniffImage(bytes);
    if (!mime) throw invalid('errors.notAnImage');
    const kept = await db
      .selectFrom('uploads')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    if (Number(kept.n) >= UPLOADS_PER_USER) throw conflict('errors.uploadLimit');
    const id = newUploadId();
    const dir = deps.config.uploadsDir;
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = uploadPath(dir, id);
    await fs.writeFile(file, bytes, { mode: 0o600, flag: 'wx' });
    try {
      await db
        .insertInto('uploads')
        .values({ id, user_id: user.id, mime, size: bytes.length, created_at: deps.clock.now() })
        .execute();
    } catch (err) {
      await fs.rm(file, { force: true });
      throw err;
    }
    return { id, url: uploadUrl(deps.config.apiBase, id) };
  });

  // The owner reads an upload back (the image bytes, not an envelope); anyone else gets notFound.
  app.get(`${deps.config.apiBase}/stock/success/upload/:id`, async (req, reply) => {
    const user = await authenticate(deps, req);
    const { id } = req.params as { id: string };
    if (!isUploadId(id)) throw notFound();
    const row = await db
      .selectFrom('uploads')
      .select('mime')
      .where('id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(uploadPath(deps.config.uploadsDir, id));
    } catch {
      throw notFound();
    }
    return reply
      .header('content-type', row.mime)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'inline')
      .send(bytes);
  });

  async function kycState(reader: Kysely<DB>, userId: number): Promise<KycState> {
    const row = await reader.selectFrom('kyc').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return { status: KYC_STATUS.none, real_name: null, id_type: null, id_number: null, note: null };
    return {
      status: row.status as KycState['status'],
      real_name: row.real_name,
      id_type: row.id_type as IdType,
      id_number: maskTail(row.id_number),
      note: row.note,
    };
  }

  route(app, contract.kycSubmit, async ({ input, user }) => {
    const realName = input.real_name.trim();
    const idNumber = input.id_number.trim().toUpperCase();
    check(checkRequired(realName, idNumber), ID_NUMBER.test(idNumber) ? null : 'errors.idNumberInvalid');
    const front = uploadIdFrom(input.id_number_img);
    const back = uploadIdFrom(input.id_number_img_two);
    if (!front || !back) throw invalid('errors.kycPhotoMissing');
    const owned = await db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', user.id)
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
      updated_at: now,
    };
    // One statement decides: a form under review (1) or approved (2) is never overwritten.
    const written = await db
      .insertInto('kyc')
      .values({ user_id: user.id, ...values, created_at: now })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet(values)
          .where('kyc.status', 'not in', [KYC_STATUS.underReview, KYC_STATUS.approved]),
      )
      .executeTakeFirst();
    if (Number(written.numInsertedOrUpdatedRows ?? 0n) === 0) throw conflict('errors.kycLocked');
    return kycState(db, user.id);
  });

  route(app, contract.kycState, async ({ user }) => kycState(db, user.id));
}

/** A card number the user already has is a conflict (the unique index decides), not a fault. */
async function uniqueCard<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('errors.bankCardExists');
    throw err;
  }
}
