import type { FirstPoll } from '../../workers/api/network';
import { stableJson } from '../shared/call';
import type { EndpointName } from '../shared/contract/index';

/**
 * The first screen's polls, remembered from one start to the next. A signed-in start asks the
 * sync worker for them as soon as the app's scripts run (`prefetch`), while the screen's code is
 * still arriving and rendering: on a slow phone its first data came half a second after its last
 * file. Nothing is written down twice: what a screen polls is learnt from its own `useWatch`
 * calls, for the user and the path it started at, during its first FIRST_POLLS_RECORD_MS.
 * The worker checks what it is given (only reads of the contract: workers/api/network.ts
 * `firstPollOf`), and logout forgets it (src/shell/device.ts).
 */
export const FIRST_POLLS_KEY = 'bourse.firstPolls';
/** Long enough for a slow phone to render its first screen and that screen's lazy parts. */
export const FIRST_POLLS_RECORD_MS = 8000;

interface Kept {
  user: number;
  path: string;
  polls: FirstPoll[];
}

/** This start's recording: the polls by key (endpoint + input), each once. */
let recording: {
  user: number;
  path: string;
  polls: Map<string, FirstPoll>;
  timer: ReturnType<typeof setTimeout>;
} | null = null;

function read(): Kept | null {
  try {
    const kept = JSON.parse(localStorage.getItem(FIRST_POLLS_KEY) ?? 'null') as Partial<Kept> | null;
    return kept && Array.isArray(kept.polls) ? (kept as Kept) : null;
  } catch {
    return null;
  }
}

/**
 * At a signed-in start: what the first screen at `path` polled at this user's last start there
 * (for the worker to check and start), and from now on, records what it polls this time.
 */
export function startFirstPolls(user: number, path: string): unknown[] {
  const kept = read();
  if (recording) clearTimeout(recording.timer);
  recording = {
    user,
    path,
    polls: new Map(),
    timer: setTimeout(finishFirstPolls, FIRST_POLLS_RECORD_MS),
  };
  return kept && kept.user === user && kept.path === path ? kept.polls : [];
}

/** A screen subscribed to a poll (useWatch): kept while the first screen is still the one shown. */
export function noteFirstPoll(name: EndpointName, input: object): void {
  if (!recording) return;
  if (window.location.pathname !== recording.path) {
    finishFirstPolls();
    return;
  }
  recording.polls.set(`${name}:${stableJson(input)}`, { name, input: input as Record<string, unknown> });
}

/** Ends the recording and keeps what it saw, for the next start. */
export function finishFirstPolls(): void {
  if (!recording) return;
  const { user, path, polls, timer } = recording;
  clearTimeout(timer);
  recording = null;
  try {
    localStorage.setItem(
      FIRST_POLLS_KEY,
      JSON.stringify({ user, path, polls: [...polls.values()] } satisfies Kept),
    );
  } catch {
    // Storage full or refused: the next start waits for its screen, as without this.
  }
}

/** Logout: nothing of the user's stays, and this start records no more. */
export function forgetFirstPolls(): void {
  if (recording) clearTimeout(recording.timer);
  recording = null;
  try {
    localStorage.removeItem(FIRST_POLLS_KEY);
  } catch {
    // Unreadable storage holds nothing to forget.
  }
}
