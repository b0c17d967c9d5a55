import { isIP } from 'node:net';

/*
 * What the engine passes on about the client's address when an action forwards client headers
 * (docs/decisions/017-trusted-proxy-and-client-address.md). The official Hasura engine forwards
 * a client's X-Forwarded-For verbatim and adds nothing, so a handler would take whatever the
 * client wrote for the address it saw. This engine does what a proxy does instead: it appends
 * the peer address of the connection it actually accepted, so the last entry is always its own
 * observation and the entries before it are only what it was told.
 */

/** The socket's peer as an address (IPv4-mapped IPv6 as IPv4), or undefined. */
export function peerAddress(remoteAddress: string | undefined): string | undefined {
  if (remoteAddress === undefined) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remoteAddress)?.[1];
  const address = mapped ?? remoteAddress;
  return isIP(address) === 0 ? undefined : address;
}

/**
 * The request's headers (lower-cased names) with the peer appended to X-Forwarded-For, as
 * `$proxy_add_x_forwarded_for` does. Without a peer (a socket already closed) the header is
 * dropped rather than passed on unvouched.
 */
export function withObservedPeer(
  headers: Record<string, string>,
  remoteAddress: string | undefined,
): Record<string, string> {
  const peer = peerAddress(remoteAddress);
  const { 'x-forwarded-for': received, ...rest } = headers;
  if (peer === undefined) return rest;
  const earlier = received?.trim();
  return { ...rest, 'x-forwarded-for': earlier ? `${earlier}, ${peer}` : peer };
}
