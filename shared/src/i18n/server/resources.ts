/*
 * The servers' own texts (e-mails, receipts), one namespace per subject: English is the source,
 * Russian and Ukrainian are typed against it. They live apart from the clients' catalogs
 * (../resources/) so no browser bundle carries them.
 */
import type { Locale } from '../locales.ts';
import type { Catalog } from '../types.ts';
import { authMail as enAuthMail } from './catalogs/en/auth-mail.ts';
import { orderMail as enOrderMail } from './catalogs/en/order-mail.ts';
import { receipt as enReceipt } from './catalogs/en/receipt.ts';
import { supportMail } from './catalogs/en/support-mail.ts';
import { authMail as ruAuthMail } from './catalogs/ru/auth-mail.ts';
import { orderMail as ruOrderMail } from './catalogs/ru/order-mail.ts';
import { receipt as ruReceipt } from './catalogs/ru/receipt.ts';
import { authMail as uaAuthMail } from './catalogs/ua/auth-mail.ts';
import { orderMail as uaOrderMail } from './catalogs/ua/order-mail.ts';
import { receipt as uaReceipt } from './catalogs/ua/receipt.ts';

const en = { orderMail: enOrderMail, authMail: enAuthMail, receipt: enReceipt };

/** The texts a server writes to a person, in that person's locale. */
export type ServerSource = typeof en;
export type ServerNamespace = keyof ServerSource;
type ServerResources = { [N in ServerNamespace]: Catalog<ServerSource[N]> };

export const serverResources: Record<Locale, ServerResources> = {
  en,
  ru: { orderMail: ruOrderMail, authMail: ruAuthMail, receipt: ruReceipt },
  ua: { orderMail: uaOrderMail, authMail: uaAuthMail, receipt: uaReceipt },
};

/** Texts written to staff: English only, whatever the language of the person concerned. */
export const staffSource = { supportMail };
export type StaffMailSource = typeof staffSource;
export type StaffMailNamespace = keyof StaffMailSource;
