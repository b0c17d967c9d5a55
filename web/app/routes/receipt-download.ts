import { OrderReceiptPdfByTokenDocument } from '@app/client/graphql/generated/anonymous.ts';
import { GraphqlRequestError, graphqlRequest } from '@app/client/graphql/request.ts';
import { DEFAULT_LOCALE, localeFromAcceptLanguage, resources } from '@app/shared/i18n';

import type { Route } from './+types/receipt-download';

/*
 * /receipt-download/<token> (issue 22, docs/decisions/036-telegram-users-settings-and-receipts.md):
 * the PDF of a completed order's receipt for whoever holds a download token, as Telegram's
 * client fetches it (its own download, without the person's session). The engine checks the
 * token (`orderReceiptPdfByToken`, role anonymous); this route only turns its answer into a file.
 * A token past its 10 minutes answers 410, any other 404, as a small page of the site, never a
 * stack or the engine's words.
 */

const TOKEN = /^[A-Za-z0-9_-]{48}$/;

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The site's page for a link that serves nothing, in the person's language. */
function gone(request: Request, status: 404 | 410 | 503): Response {
  const locale = localeFromAcceptLanguage(request.headers.get('accept-language')) ?? DEFAULT_LOCALE;
  const catalog = resources[locale];
  const receipt = catalog.trust.receipt;
  const [title, text] =
    status === 410
      ? [receipt.linkGoneTitle, receipt.linkGone]
      : status === 404
        ? [receipt.linkUnknownTitle, receipt.linkUnknown]
        : [catalog.common.notify.somethingWentWrong, catalog.errors['service-unavailable']];
  const lang = locale === 'ua' ? 'uk' : locale;
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${escape(title)} · ${escape(catalog.common.brand)}</title>
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#0b1220;color:#e5e7eb}
main{max-width:32rem;margin:15vh auto;padding:0 1.5rem}a{color:#60a5fa}
.brand{font-weight:700;letter-spacing:.02em;color:#9ca3af}</style></head>
<body><main><p class="brand">${escape(catalog.common.brand)}</p>
<h1>${escape(title)}</h1><p>${escape(text)}</p>
<p><a href="/">${escape(catalog.common.brand)}</a></p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const token = params.token;
  if (!TOKEN.test(token)) return gone(request, 404);
  try {
    const answer = await graphqlRequest(
      context.publicEnv.PUBLIC_GRAPHQL_URL,
      OrderReceiptPdfByTokenDocument,
      { token },
    );
    const pdf = answer.orderReceiptPdfByToken;
    if (!pdf) return gone(request, 404);
    const filename = /^[\w.-]{1,80}$/.test(pdf.filename) ? pdf.filename : 'receipt.pdf';
    return new Response(Buffer.from(pdf.contentBase64, 'base64'), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="${filename}"`,
        // The token is the secret: neither the file nor its address is kept anywhere.
        'cache-control': 'private, no-store',
        'referrer-policy': 'no-referrer',
        'x-robots-tag': 'noindex',
      },
    });
  } catch (error) {
    if (GraphqlRequestError.is(error)) {
      if (error.code === 'link-expired') return gone(request, 410);
      // Forged, unknown, or an order no longer completed: nothing to serve.
      if (error.code === 'not-found' || error.code === 'invalid-transition')
        return gone(request, 404);
    }
    return gone(request, 503);
  }
}
