import { describe, expect, it } from 'vitest';

import { hashPassword, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores argon2id at OWASP parameters with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
  });

  it('accepts the password and refuses anything else', async () => {
    const stored = await hashPassword('Пароль-с-юникодом-2026');
    expect(await verifyPassword(stored, 'Пароль-с-юникодом-2026')).toBe(true);
    expect(await verifyPassword(stored, 'Пароль-с-юникодом-2025')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });
});
