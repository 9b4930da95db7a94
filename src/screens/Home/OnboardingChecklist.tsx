import { Suspense } from 'react';
import { useWatch } from '../../api/hooks';
import { OptionalPart, retryableLazy } from '../../ui/FailureBoundary';
import ui from '../../ui/ui.module.css';
import o from './onboarding.module.css';

/** The checklist follows the server's state; a step done elsewhere ticks within this. */
const ONBOARDING_POLL_MS = 10_000;

/**
 * The steps themselves (OnboardingSteps.tsx: their words, links and icons) are fetched once the
 * server says there are steps to do, in the placeholder's place: Home's first screen does not
 * carry them, and an account that has done them never downloads them. Steps that could not be
 * fetched leave Home as it is and are asked for again with the next poll.
 */
const steps = retryableLazy(() => import('./OnboardingSteps'));

/**
 * A new account's first steps on Home (OnboardingSteps.tsx); when every step is done the checklist
 * leaves Home.
 */
export function OnboardingChecklist() {
  const watch = useWatch('onboarding', {}, ONBOARDING_POLL_MS);
  const state = watch.data;
  // Its place is kept while the first answer is on its way, so Home below it does not jump down
  // when it arrives (a new account, the usual case without a cached answer, has steps to do).
  const placeholder = <div className={`${ui.card} ${o.card} ${o.placeholder}`} aria-hidden="true" />;
  if (!state && watch.loading && !watch.error) return placeholder;
  if (!state || state.done) return null;
  return (
    <OptionalPart lazyPart={steps} retryAfterMs={ONBOARDING_POLL_MS}>
      <Suspense fallback={placeholder}>
        <steps.Component state={state} />
      </Suspense>
    </OptionalPart>
  );
}
