import { type FormEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { KYC_REJECTION_REASONS, type KycFlag, type KycRejectionReason } from '../../shared/backoffice';
import { KYC_STATUS } from '../../shared/status';
import { call } from '../api';
import { exactly, KYC_LABEL, when } from '../format';
import { useNow, useOps } from '../hooks';
import { OPS_PATHS } from '../paths';
import { useMe } from '../session';
import { Age, Badge, Button, Card, Empty, ErrorLine, Icon, PageHead, css as s } from '../ui';

/**
 * Real-name review: the cases under review, and one case — both ID photos (zoom,
 * rotate, drag) beside the fields as submitted, its history, and the decision: approve, reject
 * with a reason the customer's app words in their language (plus the officer's own text), or ask
 * for new photos. Photos are fetched with the staff token and shown from memory (never cached),
 * only if the server sent an image type the browser cannot run (never SVG).
 */

/** What each reason means, and what the customer reads (in their own language, in the app). */
export const REASONS: Record<KycRejectionReason, { label: string; customer: string }> = {
  photos: {
    label: 'Ask for new photos',
    customer: 'We need new photos of your ID: the ones sent cannot be used.',
  },
  unreadable: { label: 'Details unreadable', customer: 'We could not read the details on your ID.' },
  mismatch: {
    label: 'Details do not match',
    customer: 'The name or number you typed does not match your ID.',
  },
  expired: { label: 'Document expired', customer: 'The ID you sent has expired. Please use a valid one.' },
  other: { label: 'Other', customer: 'Your submission was not accepted. (Write your reason below.)' },
};

/** A case's warnings as the officer reads them, each customer named and linked. */
function KycFlags({ flags }: { flags: KycFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <ul className={s.warnBanner} aria-label="Check before deciding">
      {flags.map((f) =>
        f.code === 'samePhoto' ? (
          <li key={f.code}>The front and back photos are the same picture.</li>
        ) : (
          <li key={f.code}>
            This ID number is {f.code === 'idNumberApproved' ? 'already approved' : 'under review'} for{' '}
            {f.customers.map((o, i) => (
              <span key={o.userId}>
                {i > 0 && ', '}
                <Link to={OPS_PATHS.customer(o.userId)}>{o.name}</Link>
              </span>
            ))}
            .
          </li>
        ),
      )}
    </ul>
  );
}

const ID_TYPE: Record<string, string> = {
  idCard: 'Aadhaar / ID card',
  driver: "Driver's licence",
  passport: 'PAN / passport',
  other: 'Other',
};

const SAFE_IMAGES = ['image/jpeg', 'image/png', 'image/webp'];

function PhotoViewer({ userId, side }: { userId: number; side: 'front' | 'back' }) {
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

export function KycList() {
  const list = useOps('kycList', {}, 15_000);
  const now = useNow(5000);
  const navigate = useNavigate();
  const cases = list.data ?? [];
  return (
    <>
      <PageHead title="Real-name reviews" subtitle="Submissions under review, oldest first." />
      <ErrorLine error={list.error} />
      <Card title={`Under review · ${cases.length}`} flush>
        {cases.length === 0 ? (
          <Empty>{list.loading ? 'Loading…' : 'No submission waits for review.'}</Empty>
        ) : (
          <table className={s.table}>
            <thead>
              <tr>
                <th>Name</th>
                <th>Phone</th>
                <th>ID type</th>
                <th>Submitted</th>
                <th className={s.num}>Waiting</th>
                <th>Taken by</th>
              </tr>
            </thead>
            <tbody>
              {cases.map((c) => (
                <tr key={c.userId} onDoubleClick={() => navigate(OPS_PATHS.kyc(c.userId))}>
                  <td>
                    <Link className={s.strong} to={OPS_PATHS.kyc(c.userId)}>
                      {c.realName}
                    </Link>
                  </td>
                  <td className={s.mono}>{c.phone}</td>
                  <td>
                    {ID_TYPE[c.idType] ?? c.idType}{' '}
                    {c.flags.length > 0 && (
                      <Badge tone="danger">
                        {c.flags.length === 1 ? '1 warning' : `${c.flags.length} warnings`}
                      </Badge>
                    )}
                  </td>
                  <td className={s.muted}>{when(c.submittedAt)}</td>
                  <td className={s.num}>
                    <Age since={c.submittedAt} now={now} target={4 * 3600_000} />
                  </td>
                  <td>{c.claimedBy?.name ?? <span className={s.muted}>Nobody</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </>
  );
}

export function KycCase() {
  const userId = Number(useParams().userId);
  const me = useMe();
  const kase = useOps('kycCase', { userId });
  const navigate = useNavigate();
  const [reason, setReason] = useState<KycRejectionReason>('photos');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'approve' | 'reject' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const c = kase.data;
  const open = c?.status === KYC_STATUS.underReview;

  async function approve() {
    setBusy('approve');
    const r = await call('kycApprove', { userId });
    setBusy(null);
    if (!r.ok) return setError(r.error);
    setDone('Approved. The customer sees the approved stamp.');
    kase.reload();
  }

  async function reject(e: FormEvent) {
    e.preventDefault();
    setBusy('reject');
    const r = await call('kycReject', { userId, reason, text: text.trim() || undefined });
    setBusy(null);
    if (!r.ok) return setError(r.error);
    setDone(
      reason === 'photos'
        ? 'New photos asked for. The customer can send them now.'
        : 'Rejected. The customer reads the reason and can send the form again.',
    );
    kase.reload();
  }

  async function claim() {
    const r = await call('claim', {
      type: 'kyc',
      id: String(userId),
      staffId: c?.claimedBy?.id === me.id ? null : me.id,
    });
    setError(r.ok ? null : r.error);
    kase.reload();
  }

  return (
    <>
      <PageHead
        title={c ? c.realName : 'Real-name review'}
        subtitle={
          c && (
            <>
              <Link to={OPS_PATHS.customer(c.userId)} className={s.mono}>
                {c.phone}
              </Link>{' '}
              · submitted {when(c.submittedAt)}
            </>
          )
        }
      >
        {c && (
          <Badge
            tone={
              c.status === KYC_STATUS.approved ? 'ok' : c.status === KYC_STATUS.rejected ? 'danger' : 'warn'
            }
          >
            {KYC_LABEL[c.status]}
          </Badge>
        )}
        {c && open && (
          <Button small onClick={() => void claim()}>
            {c.claimedBy?.id === me.id ? 'Release' : c.claimedBy ? `Taken by ${c.claimedBy.name}` : 'Claim'}
          </Button>
        )}
        <Button small tone="ghost" onClick={() => navigate(OPS_PATHS.kycList)}>
          Back to the list
        </Button>
      </PageHead>
      <ErrorLine error={kase.error ?? error} />
      {done && (
        <p className={`${s.ok} ${s.banner}`} role="status">
          {done}
        </p>
      )}
      {c && open && <KycFlags flags={c.flags} />}
      {c && (
        <div className={s.split}>
          <div className={s.stack}>
            <div className={s.photos}>
              <PhotoViewer userId={userId} side="front" />
              <PhotoViewer userId={userId} side="back" />
            </div>
            <Card title="History">
              {c.history.length === 0 ? (
                <p className={s.muted}>First submission, {exactly(c.firstSubmittedAt)}.</p>
              ) : (
                <ul className={s.history}>
                  {c.history.map((h) => (
                    <li key={h.seq}>
                      <span className={s.strong}>
                        {h.action === 'kyc:approve'
                          ? 'Approved'
                          : h.action === 'kyc:newPhotos'
                            ? 'New photos asked'
                            : 'Rejected'}
                      </span>{' '}
                      by {h.actorName}, {exactly(h.at)}
                      {h.reason && (
                        <span className={s.muted}>
                          {' '}
                          · {REASONS[h.reason as KycRejectionReason]?.label ?? h.reason}
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
          <div className={s.stack}>
            <Card title="As submitted">
              <dl className={s.dl}>
                <dt>Name</dt>
                <dd>{c.realName}</dd>
                <dt>ID type</dt>
                <dd>{ID_TYPE[c.idType] ?? c.idType}</dd>
                <dt>ID number</dt>
                <dd className={s.mono}>{c.idNumber}</dd>
                <dt>Phone</dt>
                <dd className={s.mono}>{c.phone}</dd>
                <dt>First sent</dt>
                <dd>{exactly(c.firstSubmittedAt)}</dd>
                {c.reason && (
                  <>
                    <dt>Last rejection</dt>
                    <dd>
                      {REASONS[c.reason as KycRejectionReason]?.label ?? c.reason}
                      {c.note && <span className={s.muted}> · “{c.note}”</span>}
                    </dd>
                  </>
                )}
              </dl>
            </Card>
            <Card title="Decision">
              {!open ? (
                <p className={s.muted}>This submission is not under review.</p>
              ) : (
                <div className={s.stack}>
                  <Button tone="primary" busy={busy === 'approve'} onClick={() => void approve()}>
                    Approve
                  </Button>
                  <form className={s.stack} onSubmit={reject}>
                    <fieldset className={s.reasons}>
                      <legend className={s.label}>
                        Or reject — the customer reads this in their language
                      </legend>
                      {KYC_REJECTION_REASONS.map((r) => (
                        <label key={r} className={s.reason}>
                          <input
                            type="radio"
                            name="reason"
                            value={r}
                            checked={reason === r}
                            onChange={() => setReason(r)}
                          />
                          <span className={s.strong}>{REASONS[r].label}</span>
                        </label>
                      ))}
                    </fieldset>
                    <p className={`${s.small} ${s.muted}`} aria-live="polite">
                      The customer reads: “{REASONS[reason].customer}”
                    </p>
                    <label className={s.label} htmlFor="kyc-text">
                      Your words to the customer {reason === 'other' ? '(needed)' : '(optional)'}
                    </label>
                    <textarea
                      id="kyc-text"
                      className={s.textarea}
                      maxLength={500}
                      value={text}
                      onChange={(e) => setText(e.target.value)}
                    />
                    <Button
                      tone="danger"
                      type="submit"
                      busy={busy === 'reject'}
                      disabled={reason === 'other' && !text.trim()}
                    >
                      {reason === 'photos' ? 'Ask for new photos' : 'Reject'}
                    </Button>
                  </form>
                </div>
              )}
            </Card>
          </div>
        </div>
      )}
    </>
  );
}
