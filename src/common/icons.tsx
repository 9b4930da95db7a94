import type { SVGProps } from 'react';

/**
 * How both apps draw a line icon (24×24, stroked in currentColor, hidden from assistive tech: a
 * control's name is its text or label). `d` is one path, or several joined by `|`.
 */
export function LineIcon({ d, size, ...rest }: SVGProps<SVGSVGElement> & { d: string; size: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      {d.split('|').map((p) => (
        <path key={p} d={p} />
      ))}
    </svg>
  );
}

/** The drawings both apps show (the customer app's IconSearch… and the back office's `search`…). */
export const ICON_PATHS = {
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z|M20 20l-4-4',
  check: 'M5 12.5l4.5 4.5L19 7',
  lock: 'M6 11h12v9H6z|M8 11V8a4 4 0 0 1 8 0v3',
} as const;
