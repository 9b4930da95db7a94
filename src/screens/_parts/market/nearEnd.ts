import { type RefObject, useEffect } from 'react';

/** SPEC §9: the next page loads when the end of the list is within 50 px. */
const INFINITE_THRESHOLD_PX = 50;

/** Whether the end marker (its top edge) is within `threshold` px below the visible bottom. */
export function isNearEnd(
  markerTop: number,
  visibleBottom: number,
  threshold = INFINITE_THRESHOLD_PX,
): boolean {
  return markerTop - visibleBottom <= threshold;
}

/**
 * Calls `onEnd` whenever the marker comes within the threshold of the visible bottom of the page
 * (or of `root` when the list scrolls inside an element), and once more whenever `deps` change
 * while it is still there: a short first page on a tall phone must load the next one by itself.
 */
export function useNearEnd(
  marker: RefObject<HTMLElement | null>,
  onEnd: () => void,
  enabled: boolean,
  root?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!enabled) return;
    const scroller: HTMLElement | Window = root?.current ?? window;
    let frame = 0;
    const check = () => {
      frame = 0;
      const el = marker.current;
      if (!el) return;
      const bottom = root?.current ? root.current.getBoundingClientRect().bottom : window.innerHeight;
      if (isNearEnd(el.getBoundingClientRect().top, bottom)) onEnd();
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    scroller.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule, { passive: true });
    schedule();
    return () => {
      scroller.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [marker, onEnd, enabled, root]);
}
