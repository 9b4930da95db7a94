import s from './ui.module.css';

export interface TabItem<V extends string> {
  value: V;
  label: string;
}

/** A tab strip (role tablist); the panel is the caller's, labelled by `${id}-${value}`. */
export function Tabs<V extends string>({
  items,
  value,
  onChange,
  label,
  id,
}: {
  items: TabItem<V>[];
  value: V;
  onChange: (v: V) => void;
  label: string;
  id?: string;
}) {
  return (
    <div className={s.tabs} role="tablist" aria-label={label}>
      {items.map((item) => (
        <button
          key={item.value}
          id={id ? `${id}-${item.value}` : undefined}
          type="button"
          role="tab"
          aria-selected={item.value === value}
          className={s.tab}
          onClick={() => onChange(item.value)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** Two to four mutually exclusive options (e.g. half/full position). */
export function Segmented<V extends string>({
  items,
  value,
  onChange,
  label,
}: {
  items: TabItem<V>[];
  value: V;
  onChange: (v: V) => void;
  label: string;
}) {
  return (
    <div className={s.segmented} role="radiogroup" aria-label={label}>
      {items.map((item) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control: buttons with role radio and aria-checked
        <button
          key={item.value}
          type="button"
          role="radio"
          aria-checked={item.value === value}
          className={s.segment}
          onClick={() => onChange(item.value)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
