import { useTranslation } from 'react-i18next';

import { WIZARD_STEPS, type WizardStep } from '@app/shared/orders/status';

/** Where the order stands, as an ordered list with the current step marked. */
export function WizardProgress({ current }: { current: WizardStep }) {
  const { t } = useTranslation('exchange');
  const position = WIZARD_STEPS.indexOf(current);
  return (
    <nav aria-label={t('create.progress')}>
      <ol className="wizard">
        {WIZARD_STEPS.map((step, index) => (
          <li
            key={step}
            className={
              index < position
                ? 'wizard__step wizard__step--done'
                : index === position
                  ? 'wizard__step wizard__step--current'
                  : 'wizard__step'
            }
            aria-current={index === position ? 'step' : undefined}
          >
            {t(`create.steps.${step}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}
