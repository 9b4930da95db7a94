import {
  Component,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  useEffect,
} from 'react';

/** Why a part failed: it could not be fetched (the connection), or it broke (its own fault). */
export type Failure = 'fetch' | 'broken';

/** Code or words that could not be fetched (a lazy load's failure), told apart from a bug. */
export class FetchError extends Error {
  constructor(cause: unknown) {
    super('could not be fetched', { cause });
    this.name = 'FetchError';
  }
}

/**
 * `React.lazy` keeps a failed load for good; this one turns the failure into a `FetchError` and
 * `retry()` forgets it. `Component` takes the current load each time it renders, so rendered again
 * inside a `FailureBoundary` after `retry()` it fetches afresh (Chromium refetches a failed import).
 */
export function retryableLazy<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): { Component: ComponentType<P>; retry: () => void } {
  let current: LazyExoticComponent<ComponentType<P>> | null = null;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per lazy part, at module level (App's routes, the Home chart), so its identity never changes
  function Component(props: P) {
    current ??= lazy(() =>
      load().catch((err: unknown) => {
        throw new FetchError(err);
      }),
    );
    const Loaded = current as unknown as ComponentType<P>;
    return <Loaded {...props} />;
  }
  return {
    Component,
    retry: () => {
      current = null;
    },
  };
}

/*
 * What a part that throws leaves on the page, instead of taking every component with it: the
 * `failed` rendering, told whether it could not be fetched ('fetch', the connection) or failed
 * itself ('broken'), with a retry that calls `onRetry` (drop a failed load) and renders the part
 * again.
 */
export class FailureBoundary extends Component<
  {
    onRetry?: () => void;
    failed: (why: Failure, retry: () => void) => ReactNode;
    /**
     * When this changes (the screen's path), a failure is over: the part is rendered afresh. The
     * router keeps one boundary across screens, and another screen must not inherit the failure
     * of the one before it (nor its failed load, dropped through the old `onRetry`).
     */
    resetOn?: unknown;
    children: ReactNode;
  },
  { failed: Failure | null }
> {
  override state: { failed: Failure | null } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof FetchError ? 'fetch' : 'broken' };
  }

  override componentDidUpdate(previous: Readonly<{ resetOn?: unknown; onRetry?: () => void }>) {
    if (this.state.failed === null || previous.resetOn === this.props.resetOn) return;
    previous.onRetry?.();
    this.setState({ failed: null });
  }

  private retry = () => {
    this.props.onRetry?.();
    this.setState({ failed: null });
  };

  override render() {
    const { failed } = this.state;
    return failed ? this.props.failed(failed, this.retry) : this.props.children;
  }
}

/**
 * A part a screen can do without (a checklist, a sheet's code): when its code could not be fetched
 * it leaves nothing, and `retry` (an answer later, the next tap) fetches it afresh; a part that
 * broke is the screen's failure, as if it were inline. React.lazy alone keeps a failed load for
 * good and hands the raw error to the screen, which then reads as a bug rather than the connection
 * and, after a deploy, never loads the new release.
 */
export function OptionalPart({
  lazyPart,
  retryAfterMs,
  onFailed,
  children,
}: {
  lazyPart: { retry: () => void };
  /** Tries the fetch again this long after it failed; without it, only the next mount does. */
  retryAfterMs?: number;
  /** Told when the code could not be fetched (to unmount the part, say, until the next tap). */
  onFailed?: () => void;
  children: ReactNode;
}) {
  return (
    <FailureBoundary
      onRetry={lazyPart.retry}
      failed={(why, retry) => {
        if (why === 'broken') throw new Error('a part of this screen broke');
        return (
          <RetryLater afterMs={retryAfterMs} retry={retry} forget={lazyPart.retry} onFailed={onFailed} />
        );
      }}
    >
      {children}
    </FailureBoundary>
  );
}

function RetryLater({
  afterMs,
  retry,
  forget,
  onFailed,
}: {
  afterMs?: number;
  retry: () => void;
  forget: () => void;
  onFailed?: () => void;
}) {
  useEffect(() => onFailed?.(), [onFailed]);
  useEffect(() => {
    let retried = false;
    const timer =
      afterMs === undefined
        ? undefined
        : setTimeout(() => {
            retried = true;
            retry();
          }, afterMs);
    return () => {
      clearTimeout(timer);
      // Unmounted without trying again (the owner let it go): the next mount fetches afresh. After
      // a retry the fresh load is already under way, and forgetting it would ask a second time.
      if (!retried) forget();
    };
  }, [afterMs, retry, forget]);
  return null;
}
