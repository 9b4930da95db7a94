import { type ReactNode, useEffect, useRef, useState } from 'react';
import s from './watchlist.module.css';

/** Past this many pixels sideways a touch is a swipe, not a tap or a scroll. */
const SLOP = 10;
/** A press held this long without moving opens the actions sheet. */
const LONG_PRESS_MS = 550;

/**
 * A list row whose actions show by a swipe to the left (the buttons slide in under the finger) or
 * by a long press / the context-menu key (`onMenu`: the same actions as a sheet). Vertical moves
 * are left to the page (touch-action: pan-y), so the list still scrolls. A swipe or long press
 * swallows the click that ends it, so the row's link does not open underneath.
 */
export function SwipeRow({
  children,
  actions,
  actionsWidth,
  onMenu,
  symbol,
}: {
  children: ReactNode;
  /** The buttons revealed by the swipe. */
  actions: ReactNode;
  actionsWidth: number;
  onMenu: () => void;
  symbol: string;
}) {
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState(false);
  const [dragging, setDragging] = useState(false);
  const start = useRef<{ x: number; y: number; id: number; base: number } | null>(null);
  const swiped = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clearTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  // A long press still timing when the row goes (a list reload) must not open the sheet.
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const close = () => {
    setOpen(false);
    setOffset(0);
  };

  return (
    <li
      className={s.swipe}
      data-symbol={symbol}
      data-open={open ? '1' : undefined}
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        swiped.current = false;
        start.current = { x: e.clientX, y: e.clientY, id: e.pointerId, base: open ? -actionsWidth : 0 };
        clearTimer();
        timer.current = setTimeout(() => {
          timer.current = null;
          swiped.current = true;
          start.current = null;
          onMenu();
        }, LONG_PRESS_MS);
      }}
      onPointerMove={(e) => {
        const st = start.current;
        if (!st || st.id !== e.pointerId) return;
        const dx = e.clientX - st.x;
        const dy = e.clientY - st.y;
        if (Math.abs(dx) > SLOP || Math.abs(dy) > SLOP) clearTimer();
        if (!dragging) {
          if (Math.abs(dy) > SLOP && Math.abs(dy) > Math.abs(dx)) {
            start.current = null;
            return;
          }
          if (Math.abs(dx) <= SLOP) return;
          setDragging(true);
          swiped.current = true;
          (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
        }
        setOffset(Math.max(-actionsWidth, Math.min(0, st.base + dx)));
      }}
      onPointerUp={() => {
        clearTimer();
        if (dragging) {
          const next = offset < -actionsWidth / 2;
          setOpen(next);
          setOffset(next ? -actionsWidth : 0);
        }
        setDragging(false);
        start.current = null;
      }}
      onPointerCancel={() => {
        clearTimer();
        setDragging(false);
        setOffset(open ? -actionsWidth : 0);
        start.current = null;
      }}
      onClickCapture={(e) => {
        // The click that ends a swipe or a long press is not a tap on the row.
        if (swiped.current) {
          e.preventDefault();
          e.stopPropagation();
          swiped.current = false;
          return;
        }
        // A tap on an open row's content closes it; its action buttons work as they are.
        if (open && !(e.target as HTMLElement).closest('[data-row-action]')) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
      }}
      onContextMenu={(e) => {
        e.preventDefault();
        clearTimer();
        start.current = null;
        onMenu();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) close();
      }}
    >
      {(open || dragging) && (
        <div className={s.swipeActions} style={{ width: actionsWidth }}>
          {actions}
        </div>
      )}
      <div
        className={s.swipeBody}
        style={{
          transform: offset ? `translateX(${offset}px)` : undefined,
          transition: dragging ? 'none' : undefined,
        }}
      >
        {children}
      </div>
    </li>
  );
}
