import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { EmptyState, ListStates, ObjectStates } from '../../src/ui';

/**
 * The kit's ladders (src/ui/States.tsx), which screens use instead of spelling the branches:
 * loading → error → empty → rows for a list (ListStates), loading → error → the thing for one
 * object (ObjectStates); each rung on its own, and what the device holds winning over a failed
 * refresh.
 */
function ladder(rows: readonly string[] | undefined, error: string | null, onRetry?: () => void) {
  return (
    <ListStates
      rows={rows}
      error={error}
      onRetry={onRetry}
      skeleton={{ rows: 3, height: 40 }}
      empty={<EmptyState title="Nothing here" />}
    >
      {(shown) => (
        <ul aria-label="Rows">
          {shown.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      )}
    </ListStates>
  );
}

// Once for the file: initI18n starts from empty resources but loads each area once per run, so a
// second call leaves bare keys.
beforeAll(async () => {
  await initI18n('all');
});
afterEach(cleanup);

describe('ListStates', () => {
  it('shows skeleton lines, announced once as loading, until the rows arrive', () => {
    const { container } = render(ladder(undefined, null));
    expect(screen.getByRole('status').getAttribute('aria-label')).toBe('Loading…');
    expect(container.querySelectorAll('[aria-hidden="true"]')).toHaveLength(3);
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('shows the translated error with a retry when nothing arrived', () => {
    const retry = vi.fn();
    render(ladder(undefined, 'errors.network', retry));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Network error');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the list is empty for no rows, and shows the rows otherwise', () => {
    const { rerender } = render(ladder([], null));
    expect(screen.getByText('Nothing here')).toBeTruthy();
    rerender(ladder(['a', 'b'], null));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(screen.queryByText('Nothing here')).toBeNull();
  });

  it('keeps the rows it has on screen when a refresh fails', () => {
    render(ladder(['a'], 'errors.network', () => {}));
    expect(screen.getByRole('list', { name: 'Rows' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('ListStates with a placeholder of its own', () => {
  it('shows `loading` instead of skeleton lines, and the error still wins over it', () => {
    const own = (error: string | null) => (
      <ListStates rows={undefined} error={error} loading={<p>Chart loading</p>} empty={null}>
        {() => null}
      </ListStates>
    );
    const { rerender } = render(own(null));
    expect(screen.getByText('Chart loading')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    rerender(own('errors.network'));
    expect(screen.getByRole('alert').textContent).toContain('Network error');
    expect(screen.queryByText('Chart loading')).toBeNull();
  });
});

describe('ObjectStates', () => {
  const one = (data: { title: string } | null | undefined, error: string | null, onRetry?: () => void) => (
    <ObjectStates data={data} error={error} onRetry={onRetry} loading={<p role="status">Placeholder</p>}>
      {(item) => <h2>{item.title}</h2>}
    </ObjectStates>
  );

  it('shows its placeholder until the object arrives; null counts as not arrived', () => {
    const { rerender } = render(one(undefined, null));
    expect(screen.getByRole('status').textContent).toBe('Placeholder');
    rerender(one(null, null));
    expect(screen.getByRole('status').textContent).toBe('Placeholder');
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('shows the translated error with a retry when nothing arrived', () => {
    const retry = vi.fn();
    render(one(undefined, 'errors.network', retry));
    expect(screen.getByRole('alert').textContent).toContain('Network error');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledOnce();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('renders the object, and keeps it on screen when a refresh fails', () => {
    const { rerender } = render(one({ title: 'Quarterly results' }, null));
    expect(screen.getByRole('heading', { name: 'Quarterly results' })).toBeTruthy();
    rerender(one({ title: 'Quarterly results' }, 'errors.network', () => {}));
    expect(screen.getByRole('heading', { name: 'Quarterly results' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
