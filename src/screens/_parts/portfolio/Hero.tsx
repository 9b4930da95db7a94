import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../api/useConfig';
import type { AccountHero } from '../../../shared/contract/portfolio';
import { formatMoney } from '../../../shared/format';
import { toMinor } from '../../../shared/money';
import { Skeleton } from '../../../ui/States';
import s from './portfolio.module.css';

/**
 * The account's hero lines on Home and Account (DESIGN rule 8): available + reserved + holdings at
 * market + funds − loans due, each the server's (portfolio summary `hero`), so the total above them
 * is a sum a user can check on screen. Reserved, funds and loans show when there is any; reserved
 * names what holds it.
 */
export function HeroLines({
  hero,
  loading = true,
}: {
  hero: AccountHero | undefined;
  /** Its answer may still come; once it cannot (not loaded while the server is silent), nothing shows. */
  loading?: boolean;
}) {
  const { t } = useTranslation();
  const { currency } = useConfig();
  if (!hero && !loading) return null;
  if (!hero) {
    return (
      <div className={s.heroLines} aria-busy="true">
        <Skeleton height={64} />
      </div>
    );
  }
  const money = (m: string) => formatMoney(m, currency);
  const some = (m: string) => (toMinor(m) ?? 0) !== 0;
  const parts = (['orders', 'ipo', 'withdrawals'] as const).filter((p) => some(hero.reserved[p]));
  return (
    <dl className={s.heroLines} data-testid="hero-lines">
      <Line id="available" label={t('portfolio.hero.available')} amount={hero.available} money={money} />
      {some(hero.reserved.total) && (
        <Line
          id="reserved"
          label={t('portfolio.hero.reserved')}
          amount={hero.reserved.total}
          money={money}
          sign="+"
          detail={parts
            .map((p) => t(`portfolio.hero.parts.${p}`, { amount: money(hero.reserved[p]) }))
            .join(' · ')}
        />
      )}
      <Line
        id="holdings"
        label={t('portfolio.hero.holdings')}
        amount={hero.holdings}
        money={money}
        sign="+"
      />
      {some(hero.funds) && (
        <Line id="funds" label={t('portfolio.hero.funds')} amount={hero.funds} money={money} sign="+" />
      )}
      {some(hero.loans) && (
        <Line id="loans" label={t('portfolio.hero.loans')} amount={hero.loans} money={money} sign="−" />
      )}
    </dl>
  );
}

/**
 * One line: its label (with its sign in the sum), its amount and what makes it up (`detail`, under
 * both); `data-amount` is the exact figure with its sign.
 */
function Line({
  id,
  label,
  amount,
  money,
  sign,
  detail,
}: {
  id: string;
  label: string;
  amount: string;
  money: (m: string) => string;
  sign?: '+' | '−';
  detail?: string;
}) {
  return (
    <div className={s.heroLine} data-line={id} data-amount={sign === '−' ? `-${amount}` : amount}>
      <dt>
        <span className={s.heroSign} aria-hidden="true">
          {sign}
        </span>
        <span>{label}</span>
      </dt>
      <dd className="num" data-testid={id === 'available' ? 'available-balance' : `hero-${id}`}>
        {money(amount)}
      </dd>
      {detail && <dd className={s.heroParts}>{detail}</dd>}
    </div>
  );
}
