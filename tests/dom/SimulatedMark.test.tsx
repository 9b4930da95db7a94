import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { SimulatedMark } from '../../src/shell/SimulatedMark';

const config = { simulated: true };
vi.mock('../../src/api/useConfig', () => ({ useConfig: () => config }));

describe('SimulatedMark', () => {
  beforeAll(async () => {
    await initI18n('all');
  });
  afterEach(cleanup);

  it('says the prices are simulated while the simulator is the provider', () => {
    config.simulated = true;
    render(<SimulatedMark />);
    const mark = screen.getByRole('note');
    expect(mark.textContent).toBe('Simulated market data');
    expect(mark.getAttribute('title')).toMatch(/simulator/);
  });

  it('renders nothing with a real-data provider', () => {
    config.simulated = false;
    const { container } = render(<SimulatedMark />);
    expect(container.innerHTML).toBe('');
  });
});
