import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import s from './qr.module.css';

/**
 * A QR code of `text` (an otpauth:// URI) as one SVG path of its dark modules, drawn dark on a
 * white square in both themes (phones' cameras read dark on light), with a quiet zone of 4. Its size
 * is the caller's (`className`): the app's security screen and the back office's enrolment.
 */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const { path, size } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    const n = qr.getModuleCount();
    let d = '';
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
    return { path: d, size: n + 8 };
  }, [text]);
  return (
    <svg
      className={className}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect className={s.light} width={size} height={size} />
      <path className={s.dark} d={path} />
    </svg>
  );
}
