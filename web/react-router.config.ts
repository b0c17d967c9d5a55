import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // WEB_BUILD_DIR (absolute) lets two builds run side by side, e.g. parallel e2e runs; the
  // server reads the same variable.
  // eslint-disable-next-line no-restricted-properties -- build tooling, before any service env
  buildDirectory: process.env['WEB_BUILD_DIR'] ?? 'build',
  ssr: true,
  future: { v8_trailingSlashAwareDataRequests: true },
} satisfies Config;
