import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Files only the service reads: the database and its WAL, backups, the audit log's signed heads
 * and every temporary on the way to them hold card numbers, ID numbers, password hashes and
 * sealed secrets. Their modes are set here, never left to the umask:
 * - folders the service creates are 0700 (chmod after mkdir: a umask can only take bits away, but
 *   an unusual one such as 0277 would leave the owner unable to write);
 * - files are created 0600 with O_EXCL before anything is written into them, so no byte is ever
 *   readable by another account, and an existing file of ours is narrowed to 0600;
 * - temporaries have random names (128 bits) created with O_EXCL: a name planted in advance (a
 *   symlink to another file) is refused instead of followed.
 * A folder that already exists keeps its mode (it may be the operator's own, such as /tmp); what
 * the service puts in it is still 0600.
 */

export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates `dir` (and any missing parents) as 0700; an existing folder is left as it is. */
export function privateDir(dir: string): void {
  const target = path.resolve(dir);
  const first = fs.mkdirSync(target, { recursive: true, mode: PRIVATE_DIR });
  if (first === undefined) return;
  // Every folder this call created, from the first down to the target.
  for (let d = target; d.length >= first.length; d = path.dirname(d)) {
    fs.chmodSync(d, PRIVATE_DIR);
    if (d === first) break;
  }
}

/** Makes `file` exist as 0600 (created empty with O_EXCL, or an existing one narrowed). */
export function privateFile(file: string): void {
  try {
    const fd = fs.openSync(
      file,
      fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY,
      PRIVATE_FILE,
    );
    fs.fchmodSync(fd, PRIVATE_FILE);
    fs.closeSync(fd);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Never through a link: a symlink at the database's name is someone else's file.
    if (fs.lstatSync(file).isSymbolicLink())
      throw new Error(`${file} is a symbolic link; refusing to use it`);
    fs.chmodSync(file, PRIVATE_FILE);
  }
}

/** Narrows the files that exist among `files` to 0600 (a WAL or shared-memory file made earlier). */
export function narrowExisting(files: string[]): void {
  for (const f of files) {
    try {
      if (!fs.lstatSync(f).isSymbolicLink()) fs.chmodSync(f, PRIVATE_FILE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * A new, empty 0600 temporary beside `target` with a random name (`<target>.partial-<hex>`),
 * created with O_EXCL so nothing planted at a guessed name is ever written through.
 */
export function privateTemp(target: string): string {
  const tmp = `${target}.partial-${randomBytes(16).toString('hex')}`;
  const fd = fs.openSync(
    tmp,
    fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY,
    PRIVATE_FILE,
  );
  fs.fchmodSync(fd, PRIVATE_FILE);
  fs.closeSync(fd);
  return tmp;
}
