import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { settingsContract } from '#shared/contract/settings';

/**
 * Identity photos: accepted by what the bytes are (never by the file name or the declared type),
 * capped in size, stored under a random server-made name in config.uploadsDir (outside anything
 * served statically) and read back only by their owner.
 */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/** Photos a user may keep; a re-submitted KYC form needs a few, a full disk needs thousands. */
export const UPLOADS_PER_USER = 50;

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/** The image type announced by a file's first bytes (its magic number), or null. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (bytes.length >= 3 && starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes.length >= 8 && starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF <size> WEBP
  if (bytes.length >= 12 && starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) {
    return 'image/webp';
  }
  return null;
}

const ID = /^[A-Za-z0-9_-]{22}$/;

/** 128 random bits, URL-safe: the stored file's name and the upload's id. */
export function newUploadId(): string {
  return randomBytes(16).toString('base64url');
}

export function isUploadId(text: string): boolean {
  return ID.test(text);
}

/** Path of a stored upload; only ever built from a checked id, so it cannot leave the folder. */
export function uploadPath(uploadsDir: string, id: string): string {
  if (!isUploadId(id)) throw new Error('bad upload id');
  return path.join(uploadsDir, id);
}

/**
 * Where an upload's bytes are read back (GET, owner only), under the API base: the upload call's
 * path and the id. The route (routes/settings.ts) and the upload's answer are made from it.
 */
export const UPLOAD_READ_PATH = `${settingsContract.upload.path}/:id`;

/** UPLOAD_READ_PATH of one upload (`id` as given; the route refuses one that is not an upload id). */
export function uploadReadPath(id: string): string {
  return UPLOAD_READ_PATH.replace(':id', id);
}

/** The owner-only address of an upload, as the upload call answers it. */
export function uploadUrl(apiBase: string, id: string): string {
  return `${apiBase}${uploadReadPath(id)}`;
}

/** The id inside an upload's url (or a bare id), as the KYC form sends it back; null otherwise. */
export function uploadIdFrom(ref: string): string | null {
  const last = ref.trim().split('/').pop() ?? '';
  return isUploadId(last) ? last : null;
}
