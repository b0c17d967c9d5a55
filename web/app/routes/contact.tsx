import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { SUPPORT_LIMITS } from '@app/shared/forms';

import { ContactForm } from '#app/contact/contact-form.tsx';
import { telegramLabel } from '#app/contact/telegram.ts';
import { translatedPageMeta } from '#app/i18n/meta.ts';

import type { Route } from './+types/contact';

/** The contact routes of the public env (PUBLIC_CONTACT_EMAIL, PUBLIC_TELEGRAM_*). */
export function loader({ context }: Route.LoaderArgs) {
  const env = context.publicEnv;
  return {
    email: env.PUBLIC_CONTACT_EMAIL,
    telegram: env.PUBLIC_TELEGRAM_URL,
    channel: env.PUBLIC_TELEGRAM_CHANNEL_URL,
  };
}

export const meta: Route.MetaFunction = translatedPageMeta(
  'contact:metaTitle',
  'contact:metaDescription',
);

/**
 * Contact / support (spec section 2): the support form (name, e-mail, order ID, message) and
 * the other ways to reach support: e-mail, Telegram and the Telegram channel.
 */
export default function Contact({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('contact');
  const [searchParams] = useSearchParams();
  const orderId = (searchParams.get('orderId') ?? '').trim().slice(0, SUPPORT_LIMITS.orderId);

  return (
    <main id="main" className="section container contact">
      <h1>{t('title')}</h1>
      <p className="lead">{t('lead')}</p>
      <div className="contact__grid">
        <section className="card contact__form" aria-labelledby="contact-form-title">
          <h2 id="contact-form-title">{t('form.title')}</h2>
          <ContactForm initialOrderId={orderId} />
        </section>
        <section className="card contact__routes" aria-labelledby="contact-routes-title">
          <h2 id="contact-routes-title">{t('routes.title')}</h2>
          <dl className="contact__list">
            <div>
              <dt>{t('routes.email')}</dt>
              <dd>
                <a href={`mailto:${loaderData.email}`}>{loaderData.email}</a>
              </dd>
            </div>
            <div>
              <dt>{t('routes.telegram')}</dt>
              <dd>
                <ExternalLink href={loaderData.telegram} />
                <span className="field__hint">{t('routes.telegramHint')}</span>
              </dd>
            </div>
            <div>
              <dt>{t('routes.channel')}</dt>
              <dd>
                <ExternalLink href={loaderData.channel} />
                <span className="field__hint">{t('routes.channelHint')}</span>
              </dd>
            </div>
          </dl>
        </section>
      </div>
    </main>
  );
}

function ExternalLink({ href }: { href: string }) {
  const { t } = useTranslation('contact');
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {telegramLabel(href)}
      <span className="visually-hidden"> {t('routes.newWindow')}</span>
    </a>
  );
}
