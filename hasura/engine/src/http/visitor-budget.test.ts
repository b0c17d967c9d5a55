import { describe, expect, it } from 'vitest';

import { createVisitorBudget } from './visitor-budget.ts';

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
};

const budgetWith = (trustedProxies: string[] = [], maxClients?: number) => {
  const time = clock();
  const budget = createVisitorBudget({
    burstMs: 1000,
    refillMsPerSecond: 250,
    trustedProxies,
    now: time.now,
    ...(maxClients === undefined ? {} : { maxClients }),
  });
  return { budget, time };
};

describe('the client an operation is charged to', () => {
  it('is the observed peer (last in X-Forwarded-For) when no proxy is trusted', () => {
    const { budget } = budgetWith();
    expect(budget.clientOf({ 'x-forwarded-for': '203.0.113.9, 127.0.0.5' })).toBe('127.0.0.5');
    expect(budget.clientOf({ 'x-forwarded-for': '10.1.2.3' })).toBe('10.1.2.3');
    expect(budget.clientOf({})).toBe('unknown');
  });

  it('is the first untrusted address from the right behind trusted proxies', () => {
    const { budget } = budgetWith(['loopback', '10.0.0.0/8']);
    expect(budget.clientOf({ 'x-forwarded-for': '198.51.100.4, 10.0.0.2, 127.0.0.1' })).toBe(
      '198.51.100.4',
    );
    // A client in front of the proxy cannot hide behind entries it wrote itself.
    expect(
      budget.clientOf({ 'x-forwarded-for': '10.9.9.9, 198.51.100.4, 10.0.0.2, 127.0.0.1' }),
    ).toBe('198.51.100.4');
    expect(budget.clientOf({ 'x-forwarded-for': '203.0.113.1, 192.0.2.8' })).toBe('192.0.2.8');
  });
});

describe('the budget', () => {
  it('refuses a spent visitor only while the engine is shared', () => {
    const { budget, time } = budgetWith();
    budget.charge('a', 2200);
    // Alone (their own operations aside): served, debt or not.
    expect(budget.wait('a')).toBeUndefined();
    const ownEnd = budget.begin('a');
    expect(budget.wait('a')).toBeUndefined();
    // Someone else in flight: 1200 ms of debt at 250 ms/s is 5 s away.
    const otherEnd = budget.begin('b');
    expect(budget.wait('a')).toBe(5);
    // ... or served within the last second.
    otherEnd();
    time.advance(900);
    expect(budget.wait('a')).toBe(4);
    time.advance(101);
    expect(budget.wait('a')).toBeUndefined();
    ownEnd();
  });

  it('refills at its rate, never above the burst', () => {
    const { budget, time } = budgetWith();
    const end = budget.begin('other');
    budget.charge('a', 2000);
    expect(budget.wait('a')).toBe(4);
    time.advance(3000);
    expect(budget.wait('a')).toBe(1);
    time.advance(1001);
    expect(budget.wait('a')).toBeUndefined();
    time.advance(60_000);
    budget.charge('a', 1001);
    expect(budget.wait('a')).toBe(1);
    end();
  });

  it('keeps at most maxClients buckets, forgetting full ones first', () => {
    const { budget } = budgetWith([], 3);
    budget.charge('spent', 500);
    budget.charge('x', 0);
    budget.charge('y', 0);
    budget.charge('z', 0);
    expect(budget.clients).toBeLessThanOrEqual(3);
    const end = budget.begin('other');
    budget.charge('spent', 600);
    expect(budget.wait('spent')).toBe(1);
    end();
  });
});
