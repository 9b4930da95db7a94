import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useUi } from '../store/ui';

/** SPEC §9: a swipe that starts within 40 px of the left edge, travels over 60 px and lasts under 500 ms goes back. */
export const SWIPE = { edgePx: 40, minPx: 60, maxMs: 500 } as const;

export function isSwipeBack(
  start: { x: number; y: number; t: number },
  end: { x: number; y: number; t: number },
): boolean {
  const dx = end.x - start.x;
  const dy = Math.abs(end.y - start.y);
  return start.x <= SWIPE.edgePx && dx > SWIPE.minPx && end.t - start.t < SWIPE.maxMs && dy < dx;
}

/** Installs the gesture for the app's lifetime; only when there is a screen to go back to and no dialog is open. */
export function useSwipeBack(): void {
  const navigate = useNavigate();
  useEffect(() => {
    let start: { x: number; y: number; t: number } | null = null;
    const onStart = (e: TouchEvent) => {
      const t = e.touches[0];
      start = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY, t: e.timeStamp } : null;
    };
    const onEnd = (e: TouchEvent) => {
      const t = e.changedTouches[0];
      if (!start || !t) return;
      const from = start;
      start = null;
      if (!isSwipeBack(from, { x: t.clientX, y: t.clientY, t: e.timeStamp })) return;
      if (useUi.getState().dialogs > 0 || !(window.history.state?.idx > 0)) return;
      navigate(-1);
    };
    document.addEventListener('touchstart', onStart, { passive: true });
    document.addEventListener('touchend', onEnd, { passive: true });
    return () => {
      document.removeEventListener('touchstart', onStart);
      document.removeEventListener('touchend', onEnd);
    };
  }, [navigate]);
}
