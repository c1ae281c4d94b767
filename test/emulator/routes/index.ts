// Maps a path to its endpoint (for counting, fault rules and error formats) and to its handler.
// Both hosts of the real service share one origin here; the path prefix tells them apart.
import { modelError, type Reply } from '../http';
import type { RouteContext } from '../state';
import type { Endpoint } from '../types';
import { balance, models, tokensCount } from './catalog';
import { chat } from './chat';
import { embeddings } from './embeddings';
import { files } from './files';
import { infill, INFILL_PATHS } from './infill';
import { oauth } from './oauth';
import { upload } from './upload';

export const AUTH_PATH = '/api/v2/oauth';
export const MODEL_PREFIX = '/api/v1';
/** The current chat contract's one endpoint; everything else stays under the previous prefix. */
export const CHAT_V2_PATH = '/api/v2/chat/completions';

const EXACT: Record<string, Endpoint> = {
  [AUTH_PATH]: 'oauth',
  [`${MODEL_PREFIX}/chat/completions`]: 'chat',
  [CHAT_V2_PATH]: 'chat',
  [`${MODEL_PREFIX}/embeddings`]: 'embeddings',
  [`${MODEL_PREFIX}/models`]: 'models',
  [`${MODEL_PREFIX}/tokens/count`]: 'tokensCount',
  [`${MODEL_PREFIX}/balance`]: 'balance',
  [`${MODEL_PREFIX}/files`]: 'fileUpload',
  ...Object.fromEntries(INFILL_PATHS.map((path) => [path, 'infill' as const])),
};

/** The path without query string and trailing slash, as routing compares it. */
export function routePath(url: string | undefined): string {
  const path = (url ?? '/').split('?')[0];
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export function endpointOf(path: string): Endpoint | 'unknown' {
  return EXACT[path] ?? (path.startsWith(`${MODEL_PREFIX}/files/`) ? 'files' : 'unknown');
}

/** True for paths whose errors use the model host's {"status","message"} body and need a Bearer token. */
export function isModelHost(path: string): boolean {
  return path.startsWith(`${MODEL_PREFIX}/`) || path === CHAT_V2_PATH;
}

export function route(endpoint: Endpoint | 'unknown', context: RouteContext, path: string): Reply {
  switch (endpoint) {
    case 'oauth':
      return oauth(context);
    case 'chat':
      if (path !== CHAT_V2_PATH) return chat(context, 'v1');
      // An older or on-premise installation has no current contract: its server knows no such path.
      return context.state.options.chatV2 ? chat(context, 'v2') : modelError(404, 'Not found');
    case 'embeddings':
      return embeddings(context);
    case 'models':
      return models(context);
    case 'tokensCount':
      return tokensCount(context);
    case 'balance':
      return balance(context);
    case 'files':
      return files(context, path);
    case 'fileUpload':
      return upload(context);
    case 'infill':
      return infill(context, path);
    case 'unknown':
      return modelError(404, 'Not found');
  }
}
