import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { EmptyState, ListStates } from '../../src/ui';

/**
 * The kit's loading → error → empty → rows ladder (src/ui/States.tsx), which every list screen
 * uses instead of spelling the four branches: each rung on its own, and the device's rows
 * winning over a failed refresh.
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

describe('ListStates', () => {
  beforeAll(async () => {
    await initI18n('all');
  });
  afterEach(cleanup);

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
