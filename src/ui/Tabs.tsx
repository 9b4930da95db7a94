import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { IconBack, IconChevron } from './icons';
import s from './ui.module.css';

export interface TabItem<V extends string> {
  value: V;
  label: string;
  /** Not available now (e.g. a market order on a price that is not live). */
  disabled?: boolean;
}

/** Scrolls the strip `el` so its item `selected` is in view, when the strip scrolls at all. */
function keepInView(el: HTMLElement, selected: string): void {
  const current = [...el.querySelectorAll<HTMLElement>('[data-value]')].find(
    (item) => item.dataset.value === selected,
  );
  if (!current || el.scrollWidth <= el.clientWidth) return;
  // The scroller is the button's offset parent: offsetLeft is its place in the scrolled content.
  const left = current.offsetLeft;
  if (left < el.scrollLeft || left + current.offsetWidth > el.scrollLeft + el.clientWidth) {
    el.scrollLeft = left - (el.clientWidth - current.offsetWidth) / 2;
  }
}

/**
 * A strip that scrolls sideways when its items do not fit, with a visible cue on the side that has
 * more: a fade and a chevron (`data-more="start|end|both"`). The selected item is kept in view.
 */
function ScrollStrip({
  className,
  children,
  selected,
}: {
  className: string | undefined;
  children: ReactNode;
  selected: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState<'start' | 'end' | 'both' | null>(null);
  const selectedRef = useRef(selected);
  selectedRef.current = selected;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore(start && end ? 'both' : start ? 'start' : end ? 'end' : null);
    };
    el.addEventListener('scroll', update, { passive: true });
    if (typeof ResizeObserver === 'undefined') {
      update();
      keepInView(el, selectedRef.current);
      return () => el.removeEventListener('scroll', update);
    }
    // The strip's width or its labels (another language) can change: measure again. The observer's
    // first call comes after the browser's own layout, before paint: measured here, in the effect,
    // the strip forced a layout of the whole new screen in the middle of its start (Home's chart
    // range, ~15 ms of a throttled phone's start).
    let first = true;
    const observer = new ResizeObserver(() => {
      update();
      if (first) keepInView(el, selectedRef.current);
      first = false;
    });
    observer.observe(el);
    for (const child of el.children) observer.observe(child);
    return () => {
      el.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);

  // A choice made later (a tap, the keyboard) is brought into view at once; the first one by the
  // observer above.
  const shown = useRef(selected);
  useEffect(() => {
    if (shown.current === selected) return;
    shown.current = selected;
    if (ref.current) keepInView(ref.current, selected);
  }, [selected]);

  return (
    <div className={s.strip} data-more={more ?? undefined}>
      <div ref={ref} className={className ?? ''}>
        {children}
      </div>
      <span className={`${s.stripCue} ${s.stripCueStart}`} aria-hidden="true">
        <IconBack size={16} />
      </span>
      <span className={`${s.stripCue} ${s.stripCueEnd}`} aria-hidden="true">
        <IconChevron size={16} />
      </span>
    </div>
  );
}

/**
 * The two looks of one button group: a tab strip (tablist of tabs, the selected one
 * aria-selected) and segmented options (a radiogroup, the chosen one aria-checked). Both take the
 * keyboard as WAI-ARIA's patterns say: one Tab stop (the selected item), the arrow keys move to
 * the previous or next item and choose it (wrapping, skipping disabled ones), Home and End to the
 * first and last.
 */
const KINDS = {
  tabs: { scroller: s.tabs, list: s.tabList, group: 'tablist', role: 'tab', button: s.tab },
  segmented: {
    scroller: s.segmentedScroll,
    list: s.segmented,
    group: 'radiogroup',
    role: 'radio',
    button: s.segment,
  },
} as const;

interface ChoiceProps<V extends string> {
  items: TabItem<V>[];
  value: V;
  onChange: (v: V) => void;
  label: string;
}

function ChoiceStrip<V extends string>({
  kind,
  items,
  value,
  onChange,
  label,
  id,
}: ChoiceProps<V> & { kind: keyof typeof KINDS; id?: string }) {
  const k = KINDS[kind];
  const enabled = items.filter((item) => !item.disabled);
  // The one Tab stop: the selected item, or the first enabled one when none is selected.
  const stop = enabled.some((item) => item.value === value) ? value : enabled[0]?.value;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = enabled.findIndex((item) => item.value === value);
    const step: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    let next: number | null = null;
    if (e.key in step) next = (Math.max(at, 0) + step[e.key]! + enabled.length) % enabled.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = enabled.length - 1;
    const item = next === null ? undefined : enabled[next];
    if (!item) return;
    e.preventDefault();
    if (item.value !== value) onChange(item.value);
    e.currentTarget.querySelector<HTMLElement>(`[data-value="${CSS.escape(item.value)}"]`)?.focus();
  };
  return (
    <ScrollStrip className={k.scroller} selected={value}>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is the kind's (tablist or radiogroup), chosen at run time where the linter cannot see it */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a tablist or radiogroup (the kind's role, chosen at run time) takes the arrow keys */}
      <div className={k.list} role={k.group} aria-label={label} onKeyDown={onKeyDown}>
        {items.map((item) => (
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: tab with aria-selected, or radio with aria-checked (the kind's); the linter cannot see a role chosen at run time
          <button
            key={item.value}
            data-value={item.value}
            id={id ? `${id}-${item.value}` : undefined}
            type="button"
            role={k.role}
            aria-selected={kind === 'tabs' ? item.value === value : undefined}
            aria-checked={kind === 'segmented' ? item.value === value : undefined}
            className={k.button}
            tabIndex={item.value === stop ? 0 : -1}
            disabled={item.disabled}
            onClick={() => onChange(item.value)}
          >
            {item.label}
          </button>
        ))}
      </div>
    </ScrollStrip>
  );
}

/** A tab strip (role tablist); the panel is the caller's, labelled by `${id}-${value}`. */
export function Tabs<V extends string>(props: ChoiceProps<V> & { id?: string }) {
  return <ChoiceStrip kind="tabs" {...props} />;
}

/** Mutually exclusive options (e.g. half/full position, a market's region); scrolls when they do not fit. */
export function Segmented<V extends string>(props: ChoiceProps<V>) {
  return <ChoiceStrip kind="segmented" {...props} />;
}
