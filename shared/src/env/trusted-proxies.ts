import { isIP, isIPv4 } from 'node:net';

import { commaList } from './comma-list.ts';

/** proxy-addr's named ranges, which Express's `trust proxy` accepts beside addresses. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, `address/prefix` or IPv4 `address/netmask`, as proxy-addr's `compile` takes. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (version === 4 ? 32 : 128);
  return version === 4 && isIPv4(range);
}

/**
 * The reverse proxies in front of a service, by address (SECURITY.md 23, decision 017): only a
 * request that arrives from one of them has its X-Forwarded-For believed, so a client that
 * reaches the service directly never chooses the address its limits count against. A
 * comma-separated list; empty (the default): none. A hop count is refused: it believes whoever
 * connects, proxy or not.
 */
export const trustedProxies = () =>
  commaList()
    .superRefine((entries, context) => {
      for (const entry of entries) {
        if (/^\d+$/.test(entry)) {
          context.addIssue({
            code: 'custom',
            message: `is a hop count (${entry}); list the proxy's own address instead (e.g. 127.0.0.1, 10.0.0.0/8, loopback), or leave it empty to trust none`,
          });
        } else if (!isProxyAddress(entry)) {
          context.addIssue({
            code: 'custom',
            message: `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
          });
        }
      }
    })
    .default([]);
