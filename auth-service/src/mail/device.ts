import { isIP } from 'node:net';

import Bowser from 'bowser';

import { isLocale } from '@app/shared/i18n';
import { serverT } from '@app/shared/i18n/server';

/*
 * How a security mail names the request's device and address (SECURITY.md 22). The User-Agent
 * is the client's own text: a code mail once quoted it verbatim, so an attacker holding the
 * ticket could put "reply with this code to …" inside a genuine mail. Only names from the
 * parser's fixed vocabulary and a numeric major version ever reach a mail now.
 */

/** Bowser's known browser and OS names; its fallback copies any `Name/x.y` from the agent. */
const BROWSERS = new Set(Object.values(Bowser.BROWSER_MAP).filter((name) => name !== 'Generic'));
const SYSTEMS = new Set(Object.values(Bowser.OS_MAP));

const MAJOR = /^(\d{1,4})(?:[._]\d+)*$/;

export interface Device {
  browser?: string;
  /** The major version, digits only. */
  version?: string;
  os?: string;
}

/** The browser (with its major version) and OS of a User-Agent, each only if well known. */
export function parseDevice(userAgent: string | null | undefined): Device {
  if (!userAgent) return {};
  let parser: Bowser.Parser.Parser;
  try {
    parser = Bowser.getParser(userAgent);
  } catch {
    return {};
  }
  const browser = parser.getBrowserName();
  const os = parser.getOSName();
  const device: Device = {};
  if (BROWSERS.has(browser)) {
    device.browser = browser;
    const version = MAJOR.exec(parser.getBrowserVersion() ?? '')?.[1];
    if (version) device.version = version;
  }
  if (SYSTEMS.has(os)) device.os = os;
  return device;
}

/** The auth-mail catalog's words of `locale`, English when it is unknown. */
const textsFor = (locale: string) => serverT(isLocale(locale) ? locale : 'en', 'authMail');

/** "Chrome 120 on Windows", "Firefox 121", "an unknown browser on Linux", "an unknown device". */
export function describeDevice(locale: string, userAgent: string | null | undefined): string {
  const t = textsFor(locale);
  const { browser, version, os } = parseDevice(userAgent);
  const named = browser ? (version ? `${browser} ${version}` : browser) : undefined;
  if (named && os) return t('device.browserOn', { browser: named, os });
  if (named) return named;
  if (os) return t('device.unknownBrowserOn', { os });
  return t('device.unknownDevice');
}

/** The client address as an address (IPv4-mapped IPv6 shown as IPv4), or "an unknown address". */
export function describeAddress(locale: string, ip: string | null | undefined): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip ?? '')?.[1];
  const address = mapped ?? ip ?? '';
  // No zone index (`%eth0`): an address, nothing else.
  return isIP(address) && !address.includes('%')
    ? address
    : textsFor(locale)('device.unknownAddress');
}
