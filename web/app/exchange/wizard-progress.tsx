import { useTranslation } from 'react-i18next';

/** The order's steps as the spec labels them (section 2, wizard progress). */
export const WIZARD_STEPS = ['pair', 'creation', 'send', 'receive', 'completed'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

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
