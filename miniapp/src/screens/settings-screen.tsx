import { useMutation, useQuery } from '@apollo/client/react';
import { Button, Cell, List, Section } from '@telegram-apps/telegram-ui';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { databaseRefusal } from '@app/shared/errors/database';
import { AntiPhishingForm, PHRASE_MAX, validateForm } from '@app/shared/forms';
import {
  AntiPhishingPhraseDocument,
  SetAntiPhishingPhraseDocument,
} from '@app/client/graphql/generated/user.ts';
import { keyFromData } from '@app/client/i18n/i18n.ts';

import { SectionHeading } from '../components/section-heading.tsx';
import { TextField } from '../components/text-field.tsx';
import { CenteredSpinner } from '../components/shell.tsx';
import { LoadFailed } from '../components/states.tsx';
import { LiveData } from '../graphql/live-data.tsx';
import { EmailSection } from '../settings/email-section.tsx';
import { InviteSection } from '../settings/invite-section.tsx';
import { useSession } from '../session.ts';
import { haptic } from '../telegram/sdk.ts';

import '../order/order.css';
import './account.css';

/*
 * /telegram-app/settings (issue 22): what the portal's Settings offer a Telegram account, inside
 * the app, since an account made by Telegram sign-in cannot sign in to the portal: the
 * anti-phishing phrase, under the portal's rules (@app/shared/forms), shown, set, changed or
 * removed. Telegram's settings button and the order's "Set it now" open it.
 */
export function SettingsScreen() {
  return (
    <LiveData>
      <Settings />
    </LiveData>
  );
}

function Settings() {
  const { t } = useTranslation('trust');
  const userId = useSession((state) => state.user?.id ?? null);
  return (
    <List>
      <h1 className="screen-title">{t('miniapp:settings.title')}</h1>
      {userId ? <PhraseSection userId={userId} /> : <CenteredSpinner />}
      {userId ? <EmailSection /> : null}
      {userId ? <InviteSection /> : null}
    </List>
  );
}

type Notice = { kind: 'saved' | 'removed' } | { kind: 'failed'; key: string };

function PhraseSection({ userId }: { userId: string }) {
  const { t } = useTranslation('trust');
  const { data, loading, error, refetch } = useQuery(AntiPhishingPhraseDocument, {
    variables: { userId },
    fetchPolicy: 'cache-and-network',
  });
  const [setPhrase, { loading: saving }] = useMutation(SetAntiPhishingPhraseDocument);
  const saved = data?.portal_users_by_pk?.anti_phishing_phrase ?? null;
  const [phrase, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [notice, setNotice] = useState<Notice | null>(null);

  // The field starts from what is saved, once it has loaded.
  const loaded = data !== undefined;
  useEffect(() => {
    if (loaded) setValue(saved ?? '');
  }, [loaded, saved]);

  if (loading && !data) return <CenteredSpinner />;
  if (error && !data) return <LoadFailed onRetry={() => void refetch()} />;

  const save = async (value: string | null) => {
    setNotice(null);
    try {
      const answer = await setPhrase({ variables: { id: userId, phrase: value } });
      const row = answer.data?.update_portal_users_by_pk;
      if (!row) throw new Error('the phrase was not saved');
      setValue(row.anti_phishing_phrase ?? '');
      setNotice({ kind: row.anti_phishing_phrase === null ? 'removed' : 'saved' });
      haptic.success();
    } catch (failure) {
      haptic.error();
      setNotice({
        kind: 'failed',
        key:
          databaseRefusal(failure) === 'email-not-confirmed'
            ? 'auth:errors.emailNotConfirmed'
            : 'common:notify.somethingWentWrong',
      });
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const result = validateForm(AntiPhishingForm, { phrase });
    if (!result.ok) {
      setFieldError(result.errors.phrase);
      haptic.error();
      document.getElementById('settings-phrase')?.focus();
      return;
    }
    setFieldError(undefined);
    void save(result.data.phrase);
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={saving}>
      <Section
        header={<SectionHeading>{t('phishing.settingsTitle')}</SectionHeading>}
        footer={<Section.Footer>{t('phishing.settingsHint')}</Section.Footer>}
      >
        <Cell multiline subhead={t('phishing.label')} className="phishing__cell">
          {saved === null ? (
            <span className="hint">{t('miniapp:settings.notSet')}</span>
          ) : (
            <span className="phishing__phrase">{saved}</span>
          )}
        </Cell>
        <TextField
          id="settings-phrase"
          label={t('phishing.settingsField')}
          error={fieldError}
          autoComplete="off"
          maxLength={PHRASE_MAX + 16}
          value={phrase}
          onValue={(value) => {
            setValue(value);
            if (fieldError) setFieldError(undefined);
          }}
        />
      </Section>
      <div className="state-actions">
        <Button type="submit" mode="filled" size="l" stretched loading={saving}>
          {t('phishing.save')}
        </Button>
        {saved !== null ? (
          <Button
            type="button"
            mode="plain"
            size="m"
            stretched
            className="danger-text"
            disabled={saving}
            onClick={() => void save(null)}
          >
            {t('phishing.remove')}
          </Button>
        ) : null}
      </div>
      <p
        className={notice?.kind === 'failed' ? 'form-error' : 'form-message'}
        role={notice?.kind === 'failed' ? 'alert' : 'status'}
      >
        {notice === null
          ? null
          : notice.kind === 'failed'
            ? t(keyFromData(notice.key))
            : notice.kind === 'saved'
              ? t('phishing.saved')
              : t('phishing.removed')}
      </p>
    </form>
  );
}
