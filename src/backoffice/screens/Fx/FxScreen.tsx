import { exactly, rupees } from '../../format';
import { Badge, Button, Card, ErrorLine, Field, Outcome, PageHead, css as s } from '../../ui';
import { useFx } from './useFx';

/**
 * The USD rate: what converts US dollars now and where from, and a new configured
 * rate previewed with its effect before it is set (a fresh second factor, audited; useFx).
 */
/** A configured rate this far from the live one is warned about: it takes over when the quote is stale. */
const GAP_WARN_BPS = 200;
const percent = (bps: number, signed = false) =>
  `${signed ? (bps < 0 ? '−' : '+') : ''}${(Math.abs(bps) / 100).toFixed(2)} %`;

export function FxScreen() {
  const fx = useFx();
  const { st, preview: p, rate, setRate } = fx;

  return (
    <>
      <PageHead
        title="Exchange rate"
        subtitle="US dollars convert at the live quote while it is fresh, else at the configured rate."
      />
      <Outcome error={fx.error} note={fx.note} />
      <div className={s.grid2}>
        <Card title="Now">
          {st && (
            <dl className={s.dl}>
              <dt>Rate in use</dt>
              <dd className={`${s.strong} ${s.big}`}>{st.rate ? `₹${st.rate} per US$` : 'None'}</dd>
              <dt>From</dt>
              <dd>
                {st.source === 'live'
                  ? 'The live quote'
                  : st.source === 'configured'
                    ? 'The configured rate'
                    : 'Nothing'}{' '}
                <Badge tone={st.fresh ? 'ok' : 'danger'}>
                  {st.fresh ? 'Fresh' : 'Stale: USD trades refused'}
                </Badge>
              </dd>
              <dt>Configured</dt>
              <dd>
                {st.configured ? `₹${st.configured} per US$` : 'None'}{' '}
                <span className={s.muted}>
                  {st.configuredAt ? `set ${exactly(st.configuredAt)}` : 'the default, never set here'}
                </span>
              </dd>
            </dl>
          )}
          {st && st.gapBps !== null && Math.abs(st.gapBps) >= GAP_WARN_BPS && (
            <p className={`${s.notice} ${s.spaced}`} role="alert">
              The configured rate is {percent(st.gapBps)} {st.gapBps < 0 ? 'below' : 'above'} the live ₹
              {st.rate}. If the live quote goes stale, US dollars convert at ₹{st.configured} at once: set it
              near the live rate.
            </p>
          )}
        </Card>
        {fx.sets && (
          <Card title="Set the configured rate">
            <div className={s.stack}>
              <Field
                id="rate"
                label="₹ per US$ (at most 4 decimals)"
                hint={st?.source === 'live' && st.rate ? `The live rate now: ₹${st.rate}` : undefined}
              >
                <div className={s.row}>
                  <input
                    id="rate"
                    className={`${s.input} ${s.shrink} ${s.grow1}`}
                    inputMode="decimal"
                    value={rate}
                    placeholder="Type a rate"
                    onChange={(e) => setRate(e.target.value)}
                  />
                  {st?.source === 'live' && st.rate && (
                    <Button small onClick={() => setRate(st.rate!)}>
                      Use the live rate
                    </Button>
                  )}
                </div>
              </Field>
              <ErrorLine error={fx.previewError} />
              {p && (
                <dl className={s.dl}>
                  <dt>Change</dt>
                  <dd>{p.changeBps === null ? '—' : percent(p.changeBps, true)}</dd>
                  <dt>US$1,000 converts to</dt>
                  <dd>
                    {rupees(p.example.now)} → <span className={s.strong}>{rupees(p.example.next)}</span>
                  </dd>
                  <dt>Customers' US holdings</dt>
                  <dd>
                    {rupees(p.holdings.now)} → <span className={s.strong}>{rupees(p.holdings.next)}</span>
                  </dd>
                  <dt>Takes effect</dt>
                  <dd>
                    {p.current.source === 'live' && p.current.fresh
                      ? 'Only when the live quote is stale (it is fresh now)'
                      : 'At once, for 24 hours'}
                  </dd>
                </dl>
              )}
              <div>
                <Button tone="primary" disabled={!p} busy={fx.busy} onClick={fx.set}>
                  Set rate
                </Button>
              </div>
            </div>
          </Card>
        )}
      </div>
    </>
  );
}
