import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Output } from '../../api/client';
import { PATHS } from '../../paths';
import { IconCheck, IconChevron, IconShield } from '../../ui/icons';
import ui from '../../ui/ui.module.css';
import o from './onboarding.module.css';

/**
 * A new account's first steps on Home: verify identity → transaction password → bank
 * account → add funds → make a watchlist. Each links to its screen and ticks itself from the
 * server's state (`/v2/onboarding`); when every step is done the checklist leaves Home. Below the
 * steps, while the account has no second factor, setting one up is offered (not a counted step).
 */
export default function OnboardingSteps({ state }: { state: Output<'onboarding'> }) {
  const { t } = useTranslation();
  const identityNote =
    state.identity === 1
      ? t('watch.onboarding.identityReview')
      : state.identity === 3
        ? t('watch.onboarding.identityRejected')
        : null;
  const steps = [
    { key: 'identity', to: PATHS.realName, done: state.identity === 2, note: identityNote },
    { key: 'tradePassword', to: PATHS.settings, done: state.trade_password, note: null },
    { key: 'bank', to: PATHS.bankCards, done: state.bank_card, note: null },
    { key: 'funds', to: PATHS.recharge, done: state.funded, note: null },
    { key: 'watchlist', to: PATHS.watchlists, done: state.watchlist, note: null },
  ];
  const done = steps.filter((s) => s.done).length;
  return (
    <section className={`${ui.card} ${o.card}`} aria-labelledby="onboarding-title" data-testid="onboarding">
      <div className={o.head}>
        <h2 id="onboarding-title" className={o.title}>
          {t('watch.onboarding.title')}
        </h2>
        <span className={o.progressText}>
          {t('watch.onboarding.progress', { done, total: steps.length })}
        </span>
      </div>
      <progress className={o.progress} value={done} max={steps.length} aria-labelledby="onboarding-title" />
      <ol className={ui.plainList}>
        {steps.map((step) => (
          <li key={step.key} data-step={step.key} data-done={step.done ? '1' : '0'}>
            <Link to={step.to} className={`${o.step} ${step.done ? o.stepDone : ''}`}>
              <span className={o.tick} aria-hidden="true">
                {step.done && <IconCheck size={16} />}
              </span>
              <span className={o.label}>
                {t(`watch.onboarding.${step.key}`)}
                <span className="visually-hidden">
                  {' '}
                  — {t(step.done ? 'watch.onboarding.done' : 'watch.onboarding.todo')}
                </span>
                {step.note && <span className={o.note}>{step.note}</span>}
              </span>
              {!step.done && <IconChevron size={18} />}
            </Link>
          </li>
        ))}
      </ol>
      {/* Where two factors are optional (the demo), setting one up is offered here. */}
      {!state.second_factor && (
        <Link to={PATHS.security} className={`${o.step} ${o.offer}`} data-step="secure">
          <span className={o.offerIcon} aria-hidden="true">
            <IconShield size={18} />
          </span>
          <span className={o.label}>
            {t('watch.onboarding.secure')}
            <span className={o.offerTag}>{t('watch.onboarding.optional')}</span>
          </span>
          <IconChevron size={18} />
        </Link>
      )}
    </section>
  );
}
