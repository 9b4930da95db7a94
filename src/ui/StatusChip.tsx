import type { ReactNode } from 'react';
import s from './ui.module.css';

/** How a status reads; the words say what it is, the tone only tints it. */
export type Tone = 'info' | 'success' | 'warn' | 'danger' | 'muted';

/** A status in a tinted pill with a dot: orders, records, loans, IPO windows, fund terms. */
export function StatusChip({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`${s.statusChip} ${s[`tone-${tone}`]}`}>{children}</span>;
}
