import { type PointerEvent, useEffect, useRef, useState } from 'react';
import { call } from '../../api';
import { Icon, css as s } from '../../ui';

/**
 * One ID photo (zoom, rotate, drag), fetched with the staff token and shown from memory (never
 * cached), only if the server sent an image type the browser cannot run (never SVG).
 */
const SAFE_IMAGES = ['image/jpeg', 'image/png', 'image/webp'];

export function PhotoViewer({ userId, side }: { userId: number; side: 'front' | 'back' }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [zoom, setZoom] = useState(1);
  const [turn, setTurn] = useState(0);
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    let url: string | null = null;
    let live = true;
    void call('kycPhoto', { userId, side }).then((r) => {
      if (!live) return;
      if (!r.ok) return setError(r.error);
      const blob = r.data as Blob;
      if (!SAFE_IMAGES.includes(blob.type)) return setError('errors.notFound');
      url = URL.createObjectURL(blob);
      setSrc(url);
    });
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [userId, side]);

  const reset = () => {
    setZoom(1);
    setTurn(0);
    setPan({ x: 0, y: 0 });
  };
  const label = side === 'front' ? 'Front' : 'Back';
  const onDown = (e: PointerEvent) => {
    drag.current = { x: e.clientX - pan.x, y: e.clientY - pan.y };
    (e.target as Element).setPointerCapture(e.pointerId);
  };
  const onMove = (e: PointerEvent) => {
    if (drag.current) setPan({ x: e.clientX - drag.current.x, y: e.clientY - drag.current.y });
  };

  return (
    <figure className={s.viewer} aria-label={`${label} of the ID`}>
      <figcaption className={s.viewerBar}>
        <span className={`${s.strong} ${s.grow}`}>{label}</span>
        <button
          type="button"
          className={s.iconButton}
          aria-label={`Zoom in (${label})`}
          onClick={() => setZoom((z) => Math.min(6, z * 1.25))}
        >
          <Icon name="zoomIn" size={16} />
        </button>
        <button
          type="button"
          className={s.iconButton}
          aria-label={`Zoom out (${label})`}
          onClick={() => setZoom((z) => Math.max(0.5, z / 1.25))}
        >
          <Icon name="zoomOut" size={16} />
        </button>
        <button
          type="button"
          className={s.iconButton}
          aria-label={`Rotate (${label})`}
          onClick={() => setTurn((t) => (t + 90) % 360)}
        >
          <Icon name="rotate" size={16} />
        </button>
        <button type="button" className={s.iconButton} aria-label={`Fit (${label})`} onClick={reset}>
          <Icon name="reset" size={16} />
        </button>
        <span className={`${s.small} ${s.muted}`}>{Math.round(zoom * 100)}%</span>
      </figcaption>
      <div
        className={s.viewerStage}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={() => {
          drag.current = null;
        }}
        onWheel={(e) => setZoom((z) => Math.min(6, Math.max(0.5, z * (e.deltaY < 0 ? 1.1 : 1 / 1.1))))}
      >
        {src ? (
          <img
            className={s.viewerImg}
            src={src}
            alt={`${label} of the ID document`}
            draggable={false}
            style={{ transform: `translate(${pan.x}px, ${pan.y}px) rotate(${turn}deg) scale(${zoom})` }}
          />
        ) : (
          <span className={s.muted}>{error ? 'Photo unavailable' : 'Loading…'}</span>
        )}
      </div>
    </figure>
  );
}
