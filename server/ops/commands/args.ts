import fs from 'node:fs/promises';

/** Argument parsing the operator's commands share. */

/** A positive row id, or an error naming what was expected. */
export function idArg(arg: string | undefined, what: string): number {
  if (!arg || !/^\d{1,12}$/.test(arg) || Number(arg) < 1)
    throw new Error(`Expected a ${what} id, got: ${arg ?? 'nothing'}`);
  return Number(arg);
}

/** A time as the operator reads it. */
export const iso = (ms: number) => new Date(ms).toISOString();

/** `--name value` options after the positional arguments. */
export function options(args: string[]): { positional: string[]; named: Record<string, string> } {
  const positional: string[] = [];
  const named: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a.startsWith('--') && a.length > 2) {
      const value = args[i + 1];
      if (value === undefined) throw new Error(`${a} needs a value`);
      named[a.slice(2)] = value;
      i += 1;
    } else positional.push(a);
  }
  return { positional, named };
}

/** A file's text, or standard input's for `-`. */
export async function readSource(source: string): Promise<string> {
  if (source !== '-') return fs.readFile(source, 'utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
