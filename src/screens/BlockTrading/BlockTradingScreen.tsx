import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyFor, useConfig } from '../../api/useConfig';
import { PATHS } from '../../paths';
import type { BlockItem } from '../../shared/contract/invest';
import { formatNumber, formatPercent } from '../../shared/format';
import { scheduleOf } from '../../shared/market-hours';
import { displayCode } from '../../shared/rules';
import { SimulatedMark } from '../../shell/SimulatedMark';
import { TradePasswordDialog } from '../../shell/TradePasswordDialog';
import {
  AsOf,
  Button,
  CodeSearch,
  EmptyState,
  HeaderLink,
  ListStates,
  PageHeader,
  StatusChip,
  ui,
  useDates,
} from '../../ui';
import s from '../_parts/invest/invest.module.css';
import { BalanceStrip, regionPrice, Stat } from '../_parts/invest/parts';
import { UsdRateLine } from '../_parts/invest/UsdRateLine';
import { useUsdRate } from '../_parts/invest/useUsdRate';
import { BlockBuyDialog } from './BlockBuyDialog';
import { ProductNotes } from './ProductNotes';
import { type BlockMold, useBlockTrading } from './useBlockTrading';

/** Block trading (SPEC §2, /block-trading): search, list, buy dialog. QIP is the same screen with mold finalize. */
export default function BlockTradingScreen() {
  return <BlockMarket mold="bulk" />;
}

const TEXT = {
  bulk: { title: 'block.title', orders: PATHS.blockOrders, empty: 'block.empty' },
  finalize: { title: 'qip.title', orders: PATHS.qipOrders, empty: 'qip.empty' },
} as const;

export function BlockMarket({ mold }: { mold: BlockMold }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { search, setSearch, searchNow, code, list, info } = useBlockTrading(mold);
  const [buying, setBuying] = useState<BlockItem | null>(null);
  const [settingPassword, setSettingPassword] = useState<BlockItem | null>(null);
  const text = TEXT[mold];
  const rows = list.data?.rows;
  // The one USD rate (server/trading/fx.ts), shown where a lot on the list is priced in dollars.
  const usd = useUsdRate();
  const dollars = rows?.some((r) => currencyFor(config, r.type).unit !== config.currency.unit) ?? false;

  // SPEC §2: without a transaction password yet, its dialog opens first.
  function startBuy(item: BlockItem) {
    if (info.data && !info.data.has_fund_password) setSettingPassword(item);
    else setBuying(item);
  }

  return (
    <main className={ui.page}>
      <PageHeader title={t(text.title)} actions={<HeaderLink to={text.orders} label={t('block.orders')} />} />
      <BalanceStrip info={info} currency={config.currency} />
      {/* Searched as typed (after a pause); Enter searches at once. */}
      <CodeSearch
        label={t('block.search')}
        placeholder={t('block.searchPlaceholder')}
        value={search}
        onChange={setSearch}
        onSubmit={searchNow}
        className={s.search}
      />
      <div className={`${s.rateNote} ${s.rateLine}`}>
        <SimulatedMark />
        {/* The dollar rate only where a lot is priced in dollars. */}
        {dollars && <UsdRateLine rate={usd} />}
        {list.stale && <AsOf at={list.updatedAt} stale />}
      </div>
      <ProductNotes mold={mold} dollars={dollars} />
      <ListStates
        rows={rows}
        error={list.error}
        onRetry={list.reload}
        skeleton={{ rows: 5, height: 150 }}
        empty={<EmptyState title={t(code ? 'block.noMatch' : text.empty)} />}
      >
        {(rows) => (
          <ul className={s.list} aria-label={t(text.title)}>
            {rows.map((item) => (
              <BlockCard key={item.id} item={item} onBuy={() => startBuy(item)} />
            ))}
          </ul>
        )}
      </ListStates>
      {settingPassword && (
        <TradePasswordDialog
          open
          mode="first"
          onClose={() => setSettingPassword(null)}
          onDone={() => {
            const item = settingPassword;
            setSettingPassword(null);
            info.reload();
            setBuying(item);
          }}
        />
      )}
      {buying && (
        <BlockBuyDialog
          item={buying}
          usd={usd}
          onClose={() => setBuying(null)}
          onDone={() => {
            info.reload();
            list.reload();
          }}
        />
      )}
    </main>
  );
}

function BlockCard({ item, onBuy }: { item: BlockItem; onBuy: () => void }) {
  const { t } = useTranslation();
  const config = useConfig();
  const { exchange } = useDates();
  // A lot trades at the live market's price, so only in its session: a closed market shows on the
  // list, when it opens, instead of a Buy that could only be refused.
  const opensAt = item.session !== null && !item.session.open ? item.session.opens_at : null;
  const difference =
    item.market_price > 0 ? ((item.price - item.market_price) / item.market_price) * 100 : null;
  // A block is a finite placement: below one minimum lot left, nothing more can be bought.
  const soldOut = item.remaining < item.count;
  return (
    <li className={s.card} data-sold-out={soldOut || undefined}>
      <div className={s.cardTop}>
        <div className={s.titleBlock}>
          <h2 className={s.name}>{item.name}</h2>
          <span className={s.sub}>
            <span className={s.code}>{displayCode(item.tag)}</span>
            <span className={s.tag}>{item.type}</span>
            {/*
              Where the block price sits against the market, stated plainly in the
              text's colours — a difference inside the block window, never an "up" coloured bargain.
            */}
            {difference !== null && (
              <span className={s.tag} data-testid="vs-market">
                {t('block.discount', { pct: formatPercent(difference, 2) })}
              </span>
            )}
          </span>
        </div>
        {soldOut ? (
          <StatusChip tone="muted">{t('block.soldOut')}</StatusChip>
        ) : opensAt != null ? (
          <span className={s.opensAt} data-testid="block-opens">
            {t('block.opens', {
              time: exchange(opensAt, scheduleOf(undefined, item.type), 'weekdayClock'),
            })}
          </span>
        ) : (
          <Button
            variant="buy"
            className={s.compactButton}
            onClick={onBuy}
            aria-label={t('block.buyFor', { code: displayCode(item.tag) })}
          >
            {t('block.buy')}
          </Button>
        )}
      </div>
      <dl className={`${ui.statRow} ${s.stats} ${s.stats3}`}>
        <Stat label={t('block.marketPrice')}>
          {item.market_price > 0 ? regionPrice(config, item.type, item.market_price, item.decimals) : '—'}
        </Stat>
        <Stat label={t('block.blockPrice')} strong>
          {regionPrice(config, item.type, item.price, item.decimals)}
        </Stat>
        <Stat label={t('block.minShort')}>{formatNumber(item.count, 0)}</Stat>
      </dl>
      <div className={s.foot}>
        {/* Availability as a plain fact: no countdown, no urgency. */}
        <span>{t('block.remaining', { n: formatNumber(item.remaining, 0) })}</span>
        <span>{t('block.lockInShort')}</span>
      </div>
    </li>
  );
}
