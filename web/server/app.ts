import { createRequestHandler } from '@react-router/express';
import type { ServerBuild } from 'react-router';

import type { PublicEnv } from './env.ts';

declare module 'react-router' {
  interface AppLoadContext {
    publicEnv: PublicEnv;
  }
}

/** The React Router request handler, with the public env in every loader's context. */
export function createPortalHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  publicEnv: PublicEnv,
) {
  return createRequestHandler({ build, getLoadContext: () => ({ publicEnv }) });
}
