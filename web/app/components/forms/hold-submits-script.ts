/*
 * Forms before hydration (issue 23, docs/decisions/047-forms-before-hydration.md). The portal's
 * forms call the auth service and the engine from the browser; the web server has no action
 * for them. Until React has hydrated the page, this inline script (the first thing in <head>)
 * holds any submit: it cancels the native one (which would post to the web server and lose
 * what was typed), marks the form `data-held-submit` and busy, and keeps it from React, whose
 * form hook sends it once hydrated (useEarlyInput). A form that works natively (a GET search)
 * opts out with `data-native-submit`.
 *
 * Plain ES5 text with no dependency: it runs before any bundle. The server allows it by its
 * hash (web/server/security.ts), so it carries no nonce and hydrates without a mismatch.
 */
export const HOLD_SUBMITS_SCRIPT =
  "document.addEventListener('submit',function(e){var f=e.target,d=document.documentElement;" +
  "if(d.getAttribute('data-hydrated')==='true'||!f||f.hasAttribute('data-native-submit'))return;" +
  'e.preventDefault();e.stopImmediatePropagation();' +
  "f.setAttribute('data-held-submit','');f.setAttribute('aria-busy','true')},true)";

/** The attribute the script puts on a form whose submit it held. */
export const HELD_SUBMIT_ATTRIBUTE = 'data-held-submit';
