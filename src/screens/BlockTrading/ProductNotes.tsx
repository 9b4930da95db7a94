import { useTranslation } from 'react-i18next';
import s from '../_parts/invest/invest.module.css';
import type { BlockMold } from './useBlockTrading';

/**
 * What a buyer reads before a block or QIP purchase: who may buy, the lock-in, the
 * risk; where a lot is priced in US dollars, how they are converted (the rate itself is the line above,
 * `UsdRateLine`, from the server's one rate: server/trading/fx.ts).
 */
export function ProductNotes({ mold, dollars }: { mold: BlockMold; dollars: boolean }) {
  const { t } = useTranslation();
  const key = mold === 'finalize' ? 'qip' : 'block';
  return (
    <section className={s.rateNote} aria-labelledby={`${key}-notes`} data-testid="product-notes">
      <h2 id={`${key}-notes`} className="visually-hidden">
        {t('watch.product.before')}
      </h2>
      {/* Paragraphs, not a list: the page's list is the offers. */}
      <p>{t(`watch.product.${key}.eligibility`)}</p>
      <p>{t(`watch.product.${key}.lockIn`)}</p>
      <p>{t(`watch.product.${key}.risk`)}</p>
      {/* How dollars are converted, only where a lot on offer is priced in them. */}
      {dollars && <p className={s.notesRate}>{t('watch.product.qip.rateRule')}</p>}
    </section>
  );
}
