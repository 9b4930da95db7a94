import { Link, useNavigate } from 'react-router-dom';
import { KYC_REJECTION_REASONS, type KycRejectionReason } from '../../../shared/backoffice';
import { KYC_STATUS } from '../../../shared/status';
import { exactly, KYC_LABEL, when } from '../../format';
import { OPS_PATHS } from '../../paths';
import { Badge, Button, Card, Outcome, PageHead, css as s } from '../../ui';
import { ID_TYPE, KycFlags, REASONS } from './KycParts';
import { PhotoViewer } from './PhotoViewer';
import { useKycCase } from './useKycCase';

/**
 * Real-name review of one case (the list: KycList) — both ID photos (zoom,
 * rotate, drag) beside the fields as submitted, its history, and the decision: approve, reject
 * with a reason the customer's app words in their language (plus the officer's own text), or ask
 * for new photos. Photos are fetched with the staff token and shown from memory (never cached),
 * only if the server sent an image type the browser cannot run (never SVG). The decisions are
 * useKycCase'.
 */

export function KycCaseScreen() {
  const k = useKycCase();
  const { c, open, userId, reason } = k;
  const navigate = useNavigate();

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
          <Button small busy={k.busy === 'claim'} onClick={k.claim}>
            {k.mine ? 'Release' : c.claimedBy ? `Taken by ${c.claimedBy.name}` : 'Claim'}
          </Button>
        )}
        <Button small tone="ghost" onClick={() => navigate(OPS_PATHS.kycList)}>
          Back to the list
        </Button>
      </PageHead>
      <Outcome error={k.error} note={k.note} />
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
                  <Button tone="primary" busy={k.busy === 'approve'} onClick={k.approve}>
                    Approve
                  </Button>
                  <form className={s.stack} onSubmit={k.reject}>
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
                            onChange={() => k.setReason(r)}
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
                      value={k.text}
                      onChange={(e) => k.setText(e.target.value)}
                    />
                    <Button tone="danger" type="submit" busy={k.busy === 'reject'} disabled={!k.ready}>
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
