import { describe, expect, it } from 'vitest';

import { peerAddress, withObservedPeer } from './forwarded-for.ts';

describe('the client address the engine passes on', () => {
  it('appends the socket peer to whatever X-Forwarded-For the client sent', () => {
    expect(withObservedPeer({ 'x-forwarded-for': '203.0.113.9' }, '::ffff:127.0.0.5')).toEqual({
      'x-forwarded-for': '203.0.113.9, 127.0.0.5',
    });
    expect(withObservedPeer({ accept: 'x' }, '2001:db8::7')).toEqual({
      accept: 'x',
      'x-forwarded-for': '2001:db8::7',
    });
  });

  it('drops a received header it cannot vouch for, without a peer', () => {
    expect(withObservedPeer({ 'x-forwarded-for': '203.0.113.9', a: 'b' }, undefined)).toEqual({
      a: 'b',
    });
    expect(peerAddress('not an address')).toBeUndefined();
  });
});
