import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, useNavigation } from 'react-router';

import { CheckRequisitesDocument } from '@app/client/graphql/generated/anonymous.ts';
import { graphqlRequest } from '@app/client/graphql/request.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { MESSAGES } from '@app/shared/forms';

import { describedBy, FieldNotes } from '#app/components/field-notes.tsx';
import { translatedPageMeta } from '#app/i18n/meta.ts';

import type { Route } from './+types/check-requisites';

/** Longer than any address or IBAN; the action trims what it compares. */
const MAX_VALUE = 200;

export type Verdict = 'active' | 'retired' | 'unknown';

/**
 * `?value=` is checked on the server as the page renders, so a link from an order page (or a
 * form sent without JavaScript) lands on the answer.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const value = (new URL(request.url).searchParams.get('value') ?? '').trim().slice(0, MAX_VALUE);
  if (value === '') return { value, result: null, failed: false };
  try {
    const data = await graphqlRequest(
      context.publicEnv.PUBLIC_GRAPHQL_URL,
      CheckRequisitesDocument,
      { value },
    );
    const check = data.checkRequisites;
    if (!check) return { value, result: null, failed: true };
    const verdict: Verdict =
      check.verdict === 'active' || check.verdict === 'retired' ? check.verdict : 'unknown';
    return {
      value,
      failed: false,
      result: {
        value: check.value,
        verdict,
        kind: check.kind === 'deposit_address' || check.kind === 'bank_account' ? check.kind : null,
        currency: check.currency,
      },
    };
  } catch {
    return { value, result: null, failed: true };
  }
}

export const meta: Route.MetaFunction = translatedPageMeta(
  'trust:verify.metaTitle',
  'trust:verify.intro',
);

/**
 * Is this address or account really ours? (issue 10, `checkRequisites`): anyone pastes a
 * deposit address, IBAN or account number and learns whether the service gives it out now
 * (active), gave it out before (retired: do not pay) or never did (unknown).
 */
export default function CheckRequisites({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('trust');
  const navigation = useNavigation();
  const checking = navigation.state !== 'idle' && navigation.formMethod !== undefined;
  const [value, setValue] = useState(loaderData.value);
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  const { result, failed } = loaderData;

  // Back and forward between checks show each one's value.
  useEffect(() => setValue(loaderData.value), [loaderData.value]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (value.trim() === '') {
      event.preventDefault();
      setError(MESSAGES.required);
      input.current?.focus();
    }
  };

  return (
    <main id="main" className="container section narrow">
      <h1>{t('verify.title')}</h1>
      <p className="lead">{t('verify.intro')}</p>
      <Form method="get" noValidate onSubmit={onSubmit} className="card verify-form" role="search">
        <div className="field">
          <label htmlFor="verify-value">{t('verify.field')}</label>
          <input
            ref={input}
            id="verify-value"
            name="value"
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={MAX_VALUE}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              if (error) setError(undefined);
            }}
            aria-required="true"
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('verify-value', undefined, error)}
          />
          <FieldNotes id="verify-value" error={error} translateError />
        </div>
        <button
          type="submit"
          className="button button--primary"
          disabled={checking}
          aria-busy={checking || undefined}
        >
          {checking ? t('verify.checking') : t('verify.submit')}
        </button>
      </Form>

      <div aria-live="polite">
        {failed ? (
          <p className="form-message form-message--error" role="alert">
            {t('common:notify.somethingWentWrong')}
          </p>
        ) : null}
        {result ? (
          <section
            className={`card verdict verdict--${result.verdict}`}
            aria-labelledby="verdict-text"
          >
            <p id="verdict-text" className="verdict__text">
              {result.verdict === 'active'
                ? t('verify.active', {
                    currency: [
                      result.currency,
                      result.kind ? t(keyFromData(`verify.kinds.${result.kind}`)) : '',
                    ]
                      .filter(Boolean)
                      .join(', '),
                  })
                : t(`verify.${result.verdict}`)}
            </p>
            <p className="verdict__value mono">{t('verify.checked', { value: result.value })}</p>
          </section>
        ) : null}
      </div>
    </main>
  );
}
