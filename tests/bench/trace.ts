import type { CDPSession } from 'playwright';

/**
 * A Chrome trace of a page's start read for its long tasks (bench:boot, bench:budget): each task
 * of the page's main thread over 50 ms, what ran in it (the scripts it evaluated, its top-level
 * events) and where its JavaScript time went (self time from V8's sampling profiler in the trace,
 * by function and script). What Lighthouse's "long tasks" audit shows, with the functions inside.
 */

/** What the trace records: the main thread's tasks and the V8 samples inside them. */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'toplevel',
].join(',');

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      url?: string;
      frame?: string;
      isOutermostMainFrame?: boolean;
      documentLoaderURL?: string;
      startTime?: number;
      cpuProfile?: {
        nodes?: Array<{
          id: number;
          parent?: number;
          callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
        }>;
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

export interface LongTask {
  /** Milliseconds from the navigation's start. */
  start: number;
  duration: number;
  /**
   * The main thread's CPU time in it (ms): unlike its wall time, what other processes on a shared
   * machine do hardly changes it, and Chrome's CPU throttling (which suspends the thread) adds none.
   */
  cpu: number;
  /** What the task was for: the scripts it evaluated, else its largest top-level events. */
  what: string;
  /** Self time by function (`name file:line`), largest first, ms. */
  functions: Array<[string, number]>;
}

/** Starts recording; `stopTrace` ends it and returns the events. */
export async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: TRACE_CATEGORIES.split(',') },
  });
}

export async function stopTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const done = new Promise<string>((resolve) =>
    cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream as string)),
  );
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

const file = (url: string) => (url ? (url.split('/').pop() ?? url).replace(/-[\w-]{8}\.js$/, '.js') : '');

/**
 * The long tasks (over `threshold` ms) of the page's main thread in a trace: the renderer thread
 * that navigated to `pageUrl`'s origin.
 */
export function longTasks(events: TraceEvent[], threshold = 50, cpuScale = 4): LongTask[] {
  // The renderer's main thread: the one the main frame's navigation start was recorded on.
  const nav = events.find(
    (e) =>
      e.name === 'navigationStart' &&
      e.args?.data?.isOutermostMainFrame &&
      e.args.data.documentLoaderURL?.startsWith('http'),
  );
  if (!nav) return [];
  const onMain = (e: TraceEvent) => e.pid === nav.pid && e.tid === nav.tid;
  const origin = nav.ts;
  const tasks = events
    // Long on this run's clock, or long on a phone `cpuScale` times slower (its CPU time scaled).
    .filter(
      (e) =>
        onMain(e) &&
        e.ph === 'X' &&
        e.name === 'RunTask' &&
        Math.max(e.dur ?? 0, cpuScale * (e.tdur ?? 0)) > threshold * 1000,
    )
    .filter((e) => e.ts >= origin)
    .sort((a, b) => a.ts - b.ts);
  const inside = (t: TraceEvent, at: number) => at >= t.ts && at <= t.ts + (t.dur ?? 0);

  // V8's samples of the renderer's main thread, each with its time and node.
  const nodes = new Map<number, { name: string; url: string; line: number }>();
  const samples: Array<{ at: number; node: number }> = [];
  const profiles = new Map<string, { at: number }>();
  for (const e of events) {
    // The profile is started on the thread it samples; its chunks come from V8's sampler thread.
    if (e.pid !== nav.pid || !e.id) continue;
    if (e.name === 'Profile' && onMain(e)) profiles.set(e.id, { at: e.args?.data?.startTime ?? e.ts });
    if (e.name !== 'ProfileChunk') continue;
    const profile = profiles.get(e.id);
    if (!profile) continue;
    const data = e.args?.data;
    for (const n of data?.cpuProfile?.nodes ?? [])
      nodes.set(n.id, {
        name: n.callFrame.functionName || '(anonymous)',
        url: n.callFrame.url,
        line: (n.callFrame.lineNumber ?? 0) + 1,
      });
    const ids = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    for (let i = 0; i < ids.length; i++) {
      profile.at += deltas[i] ?? 0;
      samples.push({ at: profile.at, node: ids[i]! });
    }
  }
  samples.sort((a, b) => a.at - b.at);

  return tasks.map((t) => {
    const evaluated = events
      .filter((e) => onMain(e) && e.ph === 'X' && e.name === 'EvaluateScript' && inside(t, e.ts))
      .map((e) => file(e.args?.data?.url ?? ''))
      .filter(Boolean);
    const children = new Map<string, number>();
    for (const e of events)
      if (
        onMain(e) &&
        e.ph === 'X' &&
        e !== t &&
        inside(t, e.ts) &&
        e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0)
      )
        if (
          [
            'FunctionCall',
            'TimerFire',
            'EventDispatch',
            'ParseHTML',
            'Layout',
            'UpdateLayoutTree',
            'v8.compile',
            'v8.run',
            'RunMicrotasks',
            'FireAnimationFrame',
            'MajorGC',
            'MinorGC',
            'Paint',
            'ParseAuthorStyleSheet',
            'ResourceReceivedData',
            'HandlePostMessage',
          ].includes(e.name)
        )
          children.set(e.name, (children.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    const top = [...children]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([n, ms]) => `${n} ${ms.toFixed(0)}`)
      .join(', ');
    // Consecutive samples inside the task: each counts the time until the next one.
    const self = new Map<string, number>();
    for (let i = 0; i < samples.length - 1; i++) {
      const s = samples[i]!;
      if (!inside(t, s.at)) continue;
      const n = nodes.get(s.node);
      if (!n || n.name === '(idle)') continue;
      const key = n.url ? `${n.name} ${file(n.url)}:${n.line}` : n.name;
      self.set(key, (self.get(key) ?? 0) + (samples[i + 1]!.at - s.at) / 1000);
    }
    return {
      start: (t.ts - origin) / 1000,
      duration: (t.dur ?? 0) / 1000,
      cpu: (t.tdur ?? 0) / 1000,
      what: evaluated.length ? `evaluates ${evaluated.join(', ')}` : top || '(no events)',
      functions: [...self].sort((a, b) => b[1] - a[1]),
    };
  });
}

/**
 * Blocking time from CPU time (Lighthouse's simulated model: each task's time on a phone `scale`
 * times slower, past 50 ms): steadier than wall time on a machine others share.
 */
export const cpuBlockingTime = (tasks: readonly LongTask[], scale = 4) =>
  tasks.reduce((sum, t) => sum + Math.max(0, scale * t.cpu - 50), 0);

/** Total blocking time of the tasks: what each spends past 50 ms. */
export const blockingTime = (tasks: readonly LongTask[]) =>
  tasks.reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
