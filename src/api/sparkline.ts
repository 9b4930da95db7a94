import { useEffect, useState } from 'react';
import type { SparkPaths } from '../../workers/chart';
import { worker } from './client';

/**
 * Sparkline paths from the worker. Series asked for in the same render are sent in one message;
 * a series already drawn is answered from memory.
 */
const cache = new Map<string, SparkPaths>();
let queue: Array<{ key: string; values: number[]; resolve: (p: SparkPaths) => void }> = [];

function request(values: number[]): Promise<SparkPaths> {
  const key = values.join(',');
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  return new Promise((resolve) => {
    queue.push({ key, values, resolve });
    if (queue.length === 1) {
      queueMicrotask(() => {
        const batch = queue;
        queue = [];
        void worker()
          .sparklines(batch.map((b) => b.values))
          .then((paths) => {
            batch.forEach((b, i) => {
              const p = paths[i]!;
              if (cache.size > 500) cache.clear();
              cache.set(b.key, p);
              b.resolve(p);
            });
          });
      });
    }
  });
}

export function useSparkline(values: number[] | null | undefined): SparkPaths | null {
  const key = values?.join(',') ?? '';
  const [paths, setPaths] = useState<SparkPaths | null>(() => cache.get(key) ?? null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key is the values' identity
  useEffect(() => {
    if (!values?.length) {
      setPaths(null);
      return;
    }
    let alive = true;
    void request(values).then((p) => {
      if (alive) setPaths(p);
    });
    return () => {
      alive = false;
    };
  }, [key]);
  return paths;
}
