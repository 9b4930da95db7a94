import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { StatementRow } from '../../shared/contract/portfolio';
import { formatMoney } from '../../shared/format';
import { displayCode } from '../../shared/rules';
import {
  AsOf,
  Button,
  EmptyState,
  IconPie,
  ListStates,
  ObjectStates,
  PageHeader,
  SkeletonList,
  ui,
} from '../../ui';
import { Signed } from '../_parts/portfolio/parts';
import p from '../_parts/portfolio/portfolio.module.css';
import s from './statement.module.css';
import { useStatement } from './useStatement';

/** The realised P&L statement: per financial year and instrument, charges, CSV download. */
export default function StatementScreen() {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const { fy, setFy, statement, download, preparing } = useStatement();
  const data = statement.data;
  const fyLabel = (year: number) =>
    t('portfolio.statement.fy', { from: year, to: String((year + 1) % 100).padStart(2, '0') });

  return (
    <main className={`${ui.page} ${s.page}`}>
      <PageHeader title={t('portfolio.statement.title')} back={PATHS.account} />
      <div className={s.controls}>
        <label className={s.yearLabel}>
          <span>{t('portfolio.statement.year')}</span>
          <select
            className={`${ui.select} ${s.select}`}
            value={fy ?? ''}
            onChange={(e) => setFy(Number(e.target.value))}
            disabled={!data}
          >
            {(data?.years ?? (fy !== undefined ? [fy] : [])).map((year) => (
              <option key={year} value={year}>
                {fyLabel(year)}
              </option>
            ))}
          </select>
        </label>
        <Button variant="secondary" onClick={download} loading={preparing} disabled={!data}>
          {preparing ? t('portfolio.statement.preparing') : t('portfolio.statement.download')}
        </Button>
      </div>
      {data && (
        <p className={s.range}>{t('portfolio.statement.range', { from: data.fy, to: data.fy + 1 })}</p>
      )}

      <ObjectStates
        data={data}
        error={statement.error}
        onRetry={statement.reload}
        loading={<SkeletonList rows={3} height={72} />}
      >
        {(report) => (
          <>
            <section
              className={p.card}
              aria-label={t('portfolio.statement.totals')}
              data-testid="statement-totals"
            >
              <div className={p.label}>{t('portfolio.statement.totals')}</div>
              <dl className={`${ui.stats} ${ui.statsLarge} ${s.totals}`}>
                <div>
                  <dt>{t('portfolio.statement.realised')}</dt>
                  <dd>
                    <Signed amount={report.totals.realised} currency={currency} />
                  </dd>
                </div>
                <div>
                  <dt>{t('portfolio.statement.charges')}</dt>
                  <dd className="num">{formatMoney(report.totals.charges, currency)}</dd>
                </div>
                <div>
                  <dt>{t('portfolio.statement.net')}</dt>
                  <dd>
                    <Signed amount={report.totals.net} currency={currency} />
                  </dd>
                </div>
              </dl>
              <div className={p.foot}>
                <AsOf at={report.as_of} fetchedAt={statement.updatedAt} stale={statement.stale} />
              </div>
            </section>
            {/* The year's rows have arrived with the totals: only empty or rows is left to choose. */}
            <ListStates
              rows={report.rows}
              error={null}
              empty={
                <EmptyState title={t('portfolio.statement.empty')} icon={<IconPie size={28} />}>
                  <Link to={PATHS.markets} className={ui.textLink}>
                    {t('records.browse')}
                  </Link>
                </EmptyState>
              }
            >
              {(rows) => (
                <ul className={s.rows} aria-label={fyLabel(report.fy)}>
                  {rows.map((row) => (
                    <Row key={row.symbol} row={row} />
                  ))}
                </ul>
              )}
            </ListStates>
            <p className={`${p.disclosure} ${s.note}`}>{t('portfolio.statement.note')}</p>
          </>
        )}
      </ObjectStates>
    </main>
  );
}

function Row({ row }: { row: StatementRow }) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  const money = (v: string) => formatMoney(v, currency);
  return (
    <li className={s.row} data-symbol={row.symbol}>
      <div className={s.rowHead}>
        <span className={s.code}>{displayCode(row.symbol)}</span>
        <Signed amount={row.net} currency={currency} className={s.net} />
      </div>
      <div className={`${ui.name} ${s.name}`}>{row.name}</div>
      <dl className={`${ui.stats} ${s.figures}`}>
        <div>
          <dt>{t('portfolio.statement.sold')}</dt>
          <dd>{t('portfolio.statement.units', { count: row.sold })}</dd>
        </div>
        <div>
          <dt>{t('portfolio.statement.cost')}</dt>
          <dd>{money(row.cost)}</dd>
        </div>
        <div>
          <dt>{t('portfolio.statement.proceeds')}</dt>
          <dd>{money(row.proceeds)}</dd>
        </div>
        <div>
          <dt>{t('portfolio.statement.realised')}</dt>
          <dd>
            <Signed amount={row.realised} currency={currency} />
          </dd>
        </div>
        <div>
          <dt>{t('portfolio.statement.charges')}</dt>
          <dd>{money(row.charges)}</dd>
        </div>
      </dl>
    </li>
  );
}
