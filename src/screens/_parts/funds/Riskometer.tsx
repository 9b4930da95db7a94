import { useTranslation } from 'react-i18next';
import { RISKOMETER_LEVELS } from '../../../shared/funds';
import s from './funds.module.css';
import { riskKey } from './labels';

/**
 * SEBI's riskometer as a row of six steps, filled up to the scheme's level, with the level in words
 * beside it (the colour never carries it alone).
 */
export function Riskometer({ risk }: { risk: number | null }) {
  const { t } = useTranslation();
  const label = t(riskKey(risk));
  return (
    <div className={s.riskometer}>
      <div className={s.riskSteps} role="img" aria-label={`${t('fund.riskometer')}: ${label}`}>
        {RISKOMETER_LEVELS.map((level) => (
          <span
            key={level}
            className={s.riskStep}
            data-band={level <= 2 ? 'low' : level <= 4 ? 'mid' : 'high'}
            data-on={risk !== null && level <= risk ? '' : undefined}
          />
        ))}
      </div>
      <span className={s.riskLabel} aria-hidden="true">
        {label}
      </span>
    </div>
  );
}

/** The SEBI line and the past-performance note, beside every return shown. */
export function FundDisclosure({ compact }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <p className={compact ? s.disclosureCompact : s.disclosure} data-testid="fund-disclosure">
      {t('fund.disclosure')} {t('fund.pastPerformance')}
    </p>
  );
}
