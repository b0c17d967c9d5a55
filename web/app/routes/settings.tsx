import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { toFailure } from '@app/client/auth/session-types.ts';
import { browserEnv } from '@app/client/env/public-env.ts';
import {
  AntiPhishingPhraseDocument,
  SetAntiPhishingPhraseDocument,
} from '@app/client/graphql/generated/user.ts';
import { graphqlRequest } from '@app/client/graphql/request.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';
import { AntiPhishingForm, authErrorMessage, PHRASE_MAX, validateForm } from '@app/shared/forms';
import { splitLocalePath } from '@app/shared/i18n';

import { isEmailNotConfirmed } from '#app/account/email-not-confirmed.ts';
import { TelegramLinkSection } from '#app/account/telegram-link.tsx';
import { TwoFactorDialog, type TwoFactorStep } from '#app/account/two-factor-dialog.tsx';
import { CodeStep } from '#app/auth/code-step.tsx';
import { SubmitButton, TextField, useHydrated } from '#app/auth/form.tsx';
import { loginPath } from '#app/auth/redirect.ts';
import { authApi, useSession, withAccessToken } from '#app/auth/session.ts';
import { notify } from '#app/components/notify/store.ts';
import { useLocale } from '#app/i18n/locale.ts';
import { pageMeta, translatorFor } from '#app/i18n/meta.ts';
import { siteUrlOf } from '#app/utils/public-env.ts';

import type { Route } from './+types/settings';

export const meta: Route.MetaFunction = ({ location, matches }) => {
  const t = translatorFor(splitLocalePath(location.pathname).locale);
  return [
    ...pageMeta({
      pathname: location.pathname,
      siteUrl: siteUrlOf(matches),
      title: t('auth:settings.metaTitle'),
      description: t('auth:settings.metaDescription'),
    }),
    { name: 'robots', content: 'noindex' },
  ];
};

/**
 * Settings (spec section 2), signed-in users only: the Security section with the two-factor
 * toggle and Save security settings, and the anti-phishing phrase (issue 10). A visitor is sent
 * to /login and comes back here after.
 */
export default function Settings() {
  const { t } = useTranslation('auth');
  const locale = useLocale();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const checked = useSession((state) => state.checked);
  const isLoggedIn = useSession((state) => state.isLoggedIn);
  const user = useSession((state) => state.user);

  useEffect(() => {
    if (checked && !isLoggedIn) void navigate(loginPath(locale, pathname), { replace: true });
  }, [checked, isLoggedIn, navigate, locale, pathname]);

  return (
    <main id="main" className="auth section container">
      <div className="auth__card card">
        <h1>{t('settings.title')}</h1>
        {user ? (
          <>
            {user.email && !user.isVerifiedEmail ? (
              <ConfirmEmailSection key={`confirm-${user.id}`} email={user.email} />
            ) : null}
            <SecurityForm key={user.id} email={user.email} saved2fa={user.is2fa} />
            <TelegramLinkSection key={`telegram-${user.id}`} emailVerified={user.isVerifiedEmail} />
            <AntiPhishingSection key={`phrase-${user.id}`} userId={user.id} />
          </>
        ) : (
          <p role="status">{t('common:loading')}</p>
        )}
      </div>
    </main>
  );
}

interface SecurityFormProps {
  email: string | null;
  saved2fa: boolean;
}

function SecurityForm({ email, saved2fa }: SecurityFormProps) {
  const { t } = useTranslation('auth');
  const [is2fa, setIs2fa] = useState(saved2fa);
  const [pending, setPending] = useState(false);
  const [step, setStep] = useState<TwoFactorStep | null>(null);

  const saved = (enabled: boolean) => {
    setStep(null);
    useSession.getState().setUser({ is2fa: enabled });
    setIs2fa(enabled);
    notify.success(t('settings.saved'));
  };

  /*
   * The auth service changes it (issue 19). Asked without a password, it answers which proof it
   * needs: `field-required` on `password` (the dialog asks for it), or a mailed code's ticket
   * for an account without a password (the dialog asks for the code).
   */
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    if (is2fa === saved2fa) {
      notify.success(t('settings.saved'));
      return;
    }
    setPending(true);
    authApi()
      .setTwoFactor({ enabled: is2fa })
      .then((answer) => {
        if ('ok' in answer) saved(answer.enabled);
        else setStep({ kind: 'code', token: answer.token });
      })
      .catch((error: unknown) => {
        const failure = toFailure(error);
        if (failure.code === 'field-required' && failure.field === 'password') {
          setStep({ kind: 'password' });
        } else {
          notify.error(t(keyFromData(authErrorMessage(failure.code))));
        }
      })
      .finally(() => setPending(false));
  };

  return (
    <>
      <form method="post" noValidate onSubmit={onSubmit} aria-busy={pending}>
        <fieldset className="fieldset">
          <legend>{t('settings.security')}</legend>
          <div className="switch-field">
            <input
              id="settings-2fa"
              name="is2fa"
              type="checkbox"
              role="switch"
              className="switch"
              checked={is2fa}
              onChange={(event) => setIs2fa(event.target.checked)}
              aria-describedby="settings-2fa-hint"
            />
            <label htmlFor="settings-2fa">{t('settings.twoFactor')}</label>
          </div>
          <p id="settings-2fa-hint" className="field__hint">
            {t('settings.twoFactorHint', { email: email ?? '' })}
          </p>
        </fieldset>
        <SubmitButton pending={pending}>{t('settings.save')}</SubmitButton>
      </form>
      {/* Outside the form: the dialog holds a form of its own. */}
      <TwoFactorDialog
        step={step}
        enabled={is2fa}
        email={email ?? ''}
        onClose={() => setStep(null)}
        onSaved={saved}
        onCodeExpired={() => {
          setStep(null);
          notify.error(t('settings.confirm.codeExpired'));
        }}
      />
    </>
  );
}

/**
 * An account whose e-mail nobody has confirmed yet (made on the order form, or signed up and
 * not confirmed) may set nothing that would outlive its owner's first proof of the address
 * (decision 016). It confirms by a code mailed to the address: asked for while signed in to
 * this very account, the proof keeps its password.
 */
function ConfirmEmailSection({ email }: { email: string }) {
  const { t } = useTranslation('auth');
  const awaitingCode = useSession((state) => state.challenge?.purpose === 'quick-auth');
  const [pending, setPending] = useState(false);

  const send = () => {
    if (pending) return;
    setPending(true);
    useSession
      .getState()
      .quickAuth(email)
      .catch((error: unknown) =>
        notify.error(t(keyFromData(authErrorMessage(toFailure(error).code)))),
      )
      .finally(() => setPending(false));
  };

  return (
    <section className="settings-section" aria-labelledby="confirm-email-title">
      {awaitingCode ? (
        <CodeStep
          headingLevel={2}
          onBack={(reason) => {
            if (reason) notify.error(t(keyFromData(reason)));
          }}
          onSignedIn={() => notify.success(t('settings.confirmEmail.done'))}
        />
      ) : (
        <>
          <h2 id="confirm-email-title">{t('settings.confirmEmail.title')}</h2>
          <p>{t('settings.confirmEmail.text', { email })}</p>
          <button type="button" className="button" disabled={pending} onClick={send}>
            {t('settings.confirmEmail.send')}
          </button>
        </>
      )}
    </section>
  );
}

type PhraseState =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; saved: string | null };

/**
 * The anti-phishing phrase (issue 10): shown beside payment details on our own pages, so a
 * copy of a page elsewhere cannot show it. Set, change, or remove it.
 */
function AntiPhishingSection({ userId }: { userId: string }) {
  const { t } = useTranslation('trust');
  const hydrated = useHydrated();
  const [state, setState] = useState<PhraseState>({ status: 'loading' });
  const [phrase, setPhrase] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    withAccessToken((token) =>
      graphqlRequest(
        browserEnv().PUBLIC_GRAPHQL_URL,
        AntiPhishingPhraseDocument,
        { userId },
        { token },
      ),
    )
      .then((data) => {
        if (!live) return;
        const saved = data.portal_users_by_pk?.anti_phishing_phrase ?? null;
        setState({ status: 'ready', saved });
        setPhrase(saved ?? '');
      })
      .catch(() => {
        if (live) setState({ status: 'error' });
      });
    return () => {
      live = false;
    };
  }, [userId, attempt]);

  const save = (value: string | null) => {
    setPending(true);
    withAccessToken((token) =>
      graphqlRequest(
        browserEnv().PUBLIC_GRAPHQL_URL,
        SetAntiPhishingPhraseDocument,
        { id: userId, phrase: value },
        { token },
      ),
    )
      .then((data) => {
        const row = data.update_portal_users_by_pk;
        if (!row) throw new Error('the phrase was not saved');
        const saved = row.anti_phishing_phrase ?? null;
        setState({ status: 'ready', saved });
        setPhrase(saved ?? '');
        notify.success(saved === null ? t('phishing.removed') : t('phishing.saved'));
      })
      .catch((error: unknown) =>
        notify.error(isEmailNotConfirmed(error) ? t('auth:errors.emailNotConfirmed') : undefined),
      )
      .finally(() => setPending(false));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const result = validateForm(AntiPhishingForm, { phrase });
    if (!result.ok) {
      setError(result.errors.phrase);
      document.getElementById('settings-phrase')?.focus();
      return;
    }
    setError(undefined);
    save(result.data.phrase);
  };

  return (
    <form
      id="anti-phishing"
      method="post"
      noValidate
      onSubmit={onSubmit}
      aria-busy={pending || state.status === 'loading'}
      className="settings-section"
    >
      <fieldset className="fieldset">
        <legend>{t('phishing.settingsTitle')}</legend>
        <p className="field__hint">{t('phishing.settingsHint')}</p>
        {state.status === 'loading' ? (
          <p role="status">{t('common:loading')}</p>
        ) : state.status === 'error' ? (
          <div role="alert">
            <p>{t('common:notify.somethingWentWrong')}</p>
            <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
              {t('common:reload')}
            </button>
          </div>
        ) : (
          <TextField
            id="settings-phrase"
            name="phrase"
            autoComplete="off"
            label={t('phishing.settingsField')}
            value={phrase}
            error={error}
            maxLength={PHRASE_MAX + 16}
            onChange={(event) => {
              setPhrase(event.target.value);
              if (error) setError(undefined);
            }}
          />
        )}
      </fieldset>
      {state.status === 'ready' ? (
        <div className="settings-section__actions">
          <SubmitButton pending={pending}>{t('phishing.save')}</SubmitButton>
          {state.saved !== null ? (
            <button
              type="button"
              className="button button--danger button--block"
              disabled={!hydrated || pending}
              onClick={() => save(null)}
            >
              {t('phishing.remove')}
            </button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
