import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyFor, useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { Ipo } from '../../shared/contract/invest';
import { formatMoney, formatNumber } from '../../shared/format';
import { displayCode } from '../../shared/rules';
import { Button, Dialog, MoneyButton, StatusChip, type Tone, ui, useDates } from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { ProductList, QuantityStepper, regionPrice, Stat, SummaryRow } from '../_parts/invest/parts';
import { UsdRateLine } from '../_parts/invest/UsdRateLine';
import { useIpo, useIpoApply } from './useIpo';

const STATUS_TONE: Record<Ipo['status'], Tone> = { Forthcoming: 'info', Closed: 'muted', Listed: 'success' };
const WINDOW_TONE: Record<Ipo['window'], Tone> = { open: 'success', upcoming: 'info', closed: 'muted' };

/** IPO (SPEC §2): the offerings; only Forthcoming ones can be applied for. */
export default function IpoScreen() {
  const { t } = useTranslation();
  const config = useConfig();
  const { list, info } = useIpo();
  const [applying, setApplying] = useState<Ipo | null>(null);

  return (
    <ProductList
      title={t('ipo.title')}
      orders={{ to: PATHS.ipoOrders, label: t('ipo.orders') }}
      info={info}
      currency={config.currency}
      list={list}
      skeletonHeight={168}
      empty={t('ipo.empty')}
      after={
        applying && (
          <ApplyDialog
            ipo={applying}
            balance={info.data?.money}
            onClose={() => setApplying(null)}
            onDone={() => {
              setApplying(null);
              info.reload();
            }}
          />
        )
      }
    >
      {(rows) => (
        <ul className={s.list} aria-label={t('ipo.title')}>
          {rows.map((ipo) => (
            <IpoCard key={ipo.id} ipo={ipo} onApply={() => setApplying(ipo)} />
          ))}
        </ul>
      )}
    </ProductList>
  );
}

function IpoCard({ ipo, onApply }: { ipo: Ipo; onApply: () => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { date, range } = useDates();
  // Open / Upcoming / Closed from the bidding window's dates; a listed issue says so.
  const listed = ipo.status === 'Listed';
  const open = ipo.status === 'Forthcoming' && ipo.window === 'open';
  return (
    <li className={s.card}>
      <div className={s.cardTop}>
        <div className={s.titleBlock}>
          <h2 className={s.name}>{ipo.company_name}</h2>
          <span className={s.sub}>
            <span className={s.code}>{displayCode(ipo.symbol)}</span>
            <span className={s.tag}>{ipo.series}</span>
          </span>
        </div>
        {listed ? (
          <StatusChip tone={STATUS_TONE.Listed}>{t('ipo.offer.Listed')}</StatusChip>
        ) : (
          <StatusChip tone={WINDOW_TONE[ipo.window]}>{t(`watch.ipo.window.${ipo.window}`)}</StatusChip>
        )}
      </div>
      <dl className={`${ui.statRow} ${s.stats}`}>
        {ipo.band_low !== null ? (
          <Stat label={t('watch.ipo.band')} strong>
            {regionPrice(config, ipo.region, ipo.band_low)} –{' '}
            {regionPrice(config, ipo.region, ipo.issue_price)}
          </Stat>
        ) : (
          <Stat label={t('ipo.issuePrice')} strong>
            {regionPrice(config, ipo.region, ipo.issue_price)}
          </Stat>
        )}
        <Stat label={t('watch.ipo.lot')}>{t('watch.ipo.shares', { count: ipo.lot })}</Stat>
        <Stat label={t('ipo.lotRange')}>
          {formatNumber(ipo.min, 0)} – {formatNumber(ipo.max, 0)}
        </Stat>
        <Stat label={t('ipo.issueDates')}>{range(ipo.issue_start_date, ipo.issue_end_date)}</Stat>
        <Stat label={t('watch.ipo.allotment')}>
          {ipo.allotment_date === null ? t('watch.ipo.notSet') : date(ipo.allotment_date)}
        </Stat>
        <Stat label={t('ipo.listingDate')}>{date(ipo.listing_date)}</Stat>
      </dl>
      {ipo.band_low !== null && <p className={s.cardNote}>{t('watch.ipo.bandNote')}</p>}
      {open ? (
        <Button block onClick={onApply} aria-label={t('ipo.applyFor', { name: ipo.company_name })}>
          {t('ipo.apply')}
        </Button>
      ) : (
        <p className={s.cardNote}>
          {listed
            ? t('ipo.listedNote')
            : ipo.window === 'upcoming'
              ? t('watch.ipo.opensOn', { date: date(ipo.issue_start_date) })
              : t('ipo.closedNote')}
        </p>
      )}
    </li>
  );
}

function ApplyDialog({
  ipo,
  balance,
  onClose,
  onDone,
}: {
  ipo: Ipo;
  balance: string | undefined;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const form = useIpoApply(ipo, balance, onDone);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    void form.submit();
  }

  return (
    <Dialog open sheet onClose={onClose} title={t('ipo.applyTitle', { name: ipo.company_name })}>
      <form className={ui.dialogForm} onSubmit={onSubmit} noValidate>
        <dl className={`${ui.statRow} ${s.stats}`}>
          <Stat label={t('ipo.issuePrice')}>{regionPrice(config, ipo.region, ipo.issue_price)}</Stat>
          <Stat label={t('ipo.code')}>{displayCode(ipo.symbol)}</Stat>
        </dl>
        <QuantityStepper
          label={t('ipo.quantity')}
          value={form.text}
          onChange={form.change}
          onBlur={form.settle}
          onDecrease={form.decrease}
          onIncrease={form.increase}
          decreaseDisabled={form.atMin}
          increaseDisabled={form.atMax}
          hint={t('ipo.quantityHint', {
            min: formatNumber(form.bounds.min, 0),
            max: formatNumber(form.bounds.max, 0),
          })}
          error={form.insufficient ? t('errors.insufficientFunds') : null}
        />
        <dl className={s.summary}>
          <SummaryRow label={t('ipo.frozen')} total>
            <span data-testid="ipo-frozen">
              {form.frozenMinor === null ? '—' : formatMoney(form.frozenMinor, config.currency)}
            </span>
          </SummaryRow>
          <SummaryRow label={t('ipo.available')}>
            {balance === undefined ? '—' : formatMoney(balance, config.currency)}
          </SummaryRow>
        </dl>
        {currencyFor(config, ipo.region).unit === 'USD' && (
          <p className={s.summaryHint}>
            <UsdRateLine rate={form.usd} />
          </p>
        )}
        <p className={s.summaryHint}>{t('ipo.frozenHint')}</p>
        <div className={ui.dialogActions}>
          <Button variant="ghost" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <MoneyButton
            type="submit"
            call={form.call}
            loading={form.busy}
            disabled={form.insufficient || form.rateRefused}
          >
            {t('ipo.confirm')}
          </MoneyButton>
        </div>
      </form>
    </Dialog>
  );
}
