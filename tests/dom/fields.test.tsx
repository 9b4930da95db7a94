import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../src/i18n/index';
import { QuantityStepper } from '../../src/screens/_parts/invest/parts';
import { TextField } from '../../src/ui';

/**
 * The kit's field frame (src/ui/TextField.tsx `FieldFrame`), which every field is drawn in: the
 * label names the control, and the hint and the error are what describe it.
 */
const describedBy = (input: HTMLElement) =>
  (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent);

beforeAll(async () => {
  await initI18n('all');
});
afterEach(cleanup);

describe('TextField', () => {
  it('shows its hint until there is an error, which then takes its place', () => {
    const field = (error: string | null) => (
      <TextField label="Amount" value="5" onChange={() => {}} hint="At least 100" error={error} />
    );
    const { rerender } = render(field(null));
    const input = screen.getByLabelText('Amount');
    expect(describedBy(input)).toEqual(['At least 100']);
    expect(input.getAttribute('aria-invalid')).toBeNull();

    rerender(field('Below the minimum'));
    expect(describedBy(input)).toEqual(['Below the minimum']);
    expect(screen.getByRole('alert').textContent).toBe('Below the minimum');
    expect(screen.queryByText('At least 100')).toBeNull();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('QuantityStepper', () => {
  it('keeps its hint beside the error (both describe the input) and puts `aside` on the label line', () => {
    render(
      <QuantityStepper
        label="Quantity"
        value="50"
        onChange={() => {}}
        onDecrease={() => {}}
        onIncrease={() => {}}
        hint="Up to 300"
        error="At least 100"
        aside={<button type="button">Use max</button>}
      />,
    );
    const input = screen.getByLabelText('Quantity');
    expect(describedBy(input)).toEqual(['At least 100', 'Up to 300']);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const label = screen.getByText('Quantity');
    expect(label.parentElement?.contains(screen.getByRole('button', { name: 'Use max' }))).toBe(true);
  });
});
