import { Component, type ComponentType, type LazyExoticComponent, lazy, type ReactNode } from 'react';

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
    children: ReactNode;
  },
  { failed: Failure | null }
> {
  override state: { failed: Failure | null } = { failed: null };

  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof FetchError ? 'fetch' : 'broken' };
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
