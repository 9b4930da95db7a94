import { type CallResult, ERR } from '#shared/contract/define';
import { fitWithin, IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, IMAGE_QUALITY_STEPS } from '#shared/rules';

/**
 * Identity photos are shrunk here, in the sync worker, so a 12-megapixel camera shot never blocks
 * the UI thread (SPEC §5: at most 1200×1200 at quality 0.8, recompressed lower while over 1 MB).
 */
export interface Encoder {
  /** Decodes the file; throws when it is not an image the browser can read. */
  decode(file: Blob): Promise<{ width: number; height: number; source: unknown; close?: () => void }>;
  /** Draws `source` at width × height and encodes it as JPEG at `quality`. */
  encode(source: unknown, width: number, height: number, quality: number): Promise<Blob>;
}

/** OffscreenCanvas + createImageBitmap: both exist in dedicated workers. */
const canvasEncoder: Encoder = {
  async decode(file) {
    const bitmap = await createImageBitmap(file);
    return { width: bitmap.width, height: bitmap.height, source: bitmap, close: () => bitmap.close() };
  },
  async encode(source, width, height, quality) {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    // JPEG has no alpha: a transparent PNG would otherwise turn black.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(source as ImageBitmap, 0, 0, width, height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality });
  },
};

export interface PreparedImage {
  blob: Blob;
  width: number;
  height: number;
  quality: number;
}

export async function prepareImage(
  file: Blob,
  encoder: Encoder = canvasEncoder,
): Promise<CallResult<PreparedImage>> {
  const notAnImage = { ok: false as const, error: 'errors.notAnImage', status: 0 };
  // The type is only a first filter; decoding is what proves the file is an image.
  if (file.type && !file.type.startsWith('image/')) return notAnImage;
  let decoded: Awaited<ReturnType<Encoder['decode']>>;
  try {
    decoded = await encoder.decode(file);
  } catch {
    return notAnImage;
  }
  try {
    const { width, height } = fitWithin(decoded.width, decoded.height, IMAGE_MAX_SIDE);
    let blob: Blob | null = null;
    let quality: number = IMAGE_QUALITY_STEPS[0];
    for (const q of IMAGE_QUALITY_STEPS) {
      quality = q;
      blob = await encoder.encode(decoded.source, width, height, q);
      if (blob.size <= IMAGE_MAX_BYTES) break;
    }
    if (!blob) return { ok: false, error: ERR.server, status: 0 };
    // Still over after the lowest quality: the server's own limit (2 MB) is the last word.
    return { ok: true, data: { blob, width, height, quality } };
  } catch {
    return notAnImage;
  } finally {
    decoded.close?.();
  }
}
