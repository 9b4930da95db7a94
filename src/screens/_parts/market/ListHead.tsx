import { useTranslation } from 'react-i18next';
import s from './market.module.css';

/** Column titles above a list of InstrumentRow (decorative: each row reads on its own). */
export function ListHead() {
  const { t } = useTranslation();
  return (
    <div className={s.listHead} aria-hidden="true">
      <span>{t('markets.columns.name')}</span>
      <span>{t('markets.columns.price')}</span>
      <span>{t('markets.columns.percent')}</span>
    </div>
  );
}
