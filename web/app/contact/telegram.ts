/** `https://t.me/name` reads as `@name`; any other link as its host and path. */
export function telegramLabel(url: string): string {
  try {
    const { hostname, pathname } = new URL(url);
    const segments = pathname.split('/').filter(Boolean);
    if (/^(t\.me|telegram\.me)$/i.test(hostname) && segments.length === 1)
      return `@${segments[0] ?? ''}`;
    return `${hostname}${pathname === '/' ? '' : pathname}`;
  } catch {
    return url;
  }
}
