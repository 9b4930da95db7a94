import { useTranslation } from 'react-i18next';
import { useConfig } from '../api/useConfig';
import s from './simulated.module.css';

/**
 * "Simulated market data": placed on every screen that shows prices while the server's market
 * provider is the simulator (config `simulated_market` = 1), so nobody takes them for live quotes.
 * Renders nothing with a real-data provider or before the config has loaded.
 */
export function SimulatedMark({ className }: { className?: string }) {
  const { t } = useTranslation();
  const { simulated } = useConfig();
  if (!simulated) return null;
  return (
    <span
      className={className ? `${s.mark} ${className}` : s.mark}
      role="note"
      title={t('market.simulatedHint')}
    >
      <span className={s.dot} aria-hidden="true" />
      {t('market.simulated')}
    </span>
  );
}
