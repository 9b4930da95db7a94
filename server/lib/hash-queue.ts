import type { Config } from '../config';
import { ApiError } from './errors';

/**
 * Bounds the password hashes (scrypt, ~100 ms of a core each) one process runs: at most
 * `concurrency` at once and `queue` more waiting; beyond that a request is answered at once with
 * `errors.busy` (429) instead of piling up work an attacker chose. One queue per configuration
 * (a process has one; tests build several servers).
 */
class HashQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) this.active += 1;
    else {
      if (this.waiting.length >= this.queue) throw new ApiError('errors.busy', 429);
      // The finishing hash hands its slot straight to the next in line.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Hashes running and waiting (tests). */
  load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

const queues = new WeakMap<Config, HashQueue>();

export function hashQueue(config: Config): HashQueue {
  let q = queues.get(config);
  if (!q) {
    q = new HashQueue(config.hashing.concurrency, config.hashing.queue);
    queues.set(config, q);
  }
  return q;
}
