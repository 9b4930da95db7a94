import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { MemoryRouter, useNavigate } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { ScreenBoundary } from '../../src/shell/ScreenBoundary';
import { FailureBoundary, FetchError, OptionalPart, retryableLazy } from '../../src/ui/FailureBoundary';

/**
 * What a screen that throws leaves on the page (src/shell/ScreenBoundary.tsx): a failed fetch is
 * told as the connection, any other failure as the screen's own, both with a way back and a Retry
 * that asks for a fresh load and shows the screen once it renders. The journey in
 * e2e/app-core.spec.ts shows the fetch case in the real browser.
 */
let failure: Error | null = null;
function Screen() {
  if (failure) throw failure;
  return <h1>Settings</h1>;
}

function shown(onRetry = () => {}) {
  return render(
    <MemoryRouter>
      <ScreenBoundary onRetry={onRetry}>
        <Screen />
      </ScreenBoundary>
    </MemoryRouter>,
  );
}

describe('ScreenBoundary', () => {
  beforeAll(async () => {
    await initI18n('all');
  });
  afterEach(() => {
    cleanup();
    failure = null;
    vi.restoreAllMocks();
  });

  it('shows the screen when nothing fails', () => {
    shown();
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells a screen that could not be fetched as the connection, and Retry loads it afresh', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failure = new FetchError(new TypeError('Failed to fetch dynamically imported module'));
    const onRetry = vi.fn(() => {
      failure = null;
    });
    shown(onRetry);
    expect(screen.getByRole('alert').textContent).toContain(
      'This screen could not load. Check your connection and try again.',
    );
    expect(screen.getByRole('heading', { name: 'Not loaded' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('tells any other failure as the screen’s own, not the connection, and stays on it while it keeps failing', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    failure = new Error('a bug');
    shown();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Something went wrong on this screen.');
    expect(alert.textContent).not.toContain('connection');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong on this screen.');
  });
});

let go: (to: string) => void = () => {};
function Navigator() {
  go = useNavigate();
  return null;
}

describe('ScreenBoundary across screens', () => {
  afterEach(() => {
    cleanup();
    failure = null;
    vi.restoreAllMocks();
  });

  it('does not hand one screen’s failure to the next: the router keeps the boundary, the path resets it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onRetry = vi.fn();
    failure = new FetchError(new TypeError('Failed to fetch dynamically imported module'));
    render(
      <MemoryRouter>
        <Navigator />
        <ScreenBoundary onRetry={onRetry}>
          <Screen />
        </ScreenBoundary>
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Not loaded' })).toBeTruthy();
    failure = null;
    await act(async () => go('/news'));
    expect(screen.getByRole('heading', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // The failed screen's load is dropped, so going back fetches it afresh.
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('retryableLazy', () => {
  afterEach(cleanup);

  it('turns a failed load into a FetchError, and after retry() loads afresh', async () => {
    let attempts = 0;
    const part = retryableLazy(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <p>Chart</p> };
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <FailureBoundary
        onRetry={part.retry}
        failed={(why, retry) => (
          <button type="button" onClick={retry}>
            {why}
          </button>
        )}
      >
        <Suspense fallback={<span>loading</span>}>
          <part.Component />
        </Suspense>
      </FailureBoundary>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'fetch' }));
    expect(await screen.findByText('Chart')).toBeTruthy();
    expect(attempts).toBe(2);
    vi.restoreAllMocks();
  });
});

/*
 * A part the screen can do without (Home's onboarding steps, the language sheet): code that could not
 * be fetched leaves the screen standing — in the deploy journey a raw lazy failure took Home down as
 * "Something went wrong", and the screen's new-release reload never ran — and is asked for again.
 */
describe('OptionalPart', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function screenWith(
    part: ReturnType<typeof retryableLazy>,
    props: { retryAfterMs?: number; onFailed?: () => void },
  ) {
    return render(
      <MemoryRouter>
        <ScreenBoundary onRetry={() => {}}>
          <h1>Home</h1>
          <OptionalPart lazyPart={part} {...props}>
            <Suspense fallback={<span>loading</span>}>
              <part.Component />
            </Suspense>
          </OptionalPart>
        </ScreenBoundary>
      </MemoryRouter>,
    );
  }

  it('leaves the screen as it is when the code could not be fetched, and fetches it again later', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let attempts = 0;
    const part = retryableLazy(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <p>Steps</p> };
    });
    screenWith(part, { retryAfterMs: 10_000 });
    await act(async () => {});
    expect(attempts).toBe(1);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText('Steps')).toBeNull();
    await act(async () => {
      vi.advanceTimersByTime(10_000);
    });
    await act(async () => {});
    expect(attempts).toBe(2);
    expect(screen.getByText('Steps')).toBeTruthy();
  });

  it('tells its owner, which asks again at the next use', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const part = retryableLazy(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <p>Sheet</p> };
    });
    const onFailed = vi.fn();
    const first = screenWith(part, { onFailed });
    await act(async () => {});
    expect(onFailed).toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();
    first.unmount();
    screenWith(part, {});
    expect(await screen.findByText('Sheet')).toBeTruthy();
    expect(attempts).toBe(2);
  });

  it('is the screen’s failure when the part itself broke', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const part = retryableLazy(async () => ({
      default: () => {
        throw new Error('a bug');
      },
    }));
    screenWith(part, {});
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong on this screen.');
  });
});
