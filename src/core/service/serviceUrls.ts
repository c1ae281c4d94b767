import { ServiceError } from '../serviceError';

/**
 * Which of the service's two addresses: the token exchange's or the model host's. The host names
 * the setting that holds each (the core knows no settings).
 */
export type ServiceUrlSetting = 'authUrl' | 'baseUrl';

/** How the core's own messages name each address; what the user reads is the host's wording. */
const ADDRESS_NAMES: Record<ServiceUrlSetting, string> = { authUrl: 'token exchange address', baseUrl: 'model host address' };

/** The error codes that name the setting at fault, for the fix ("open the settings"). */
export const INVALID_URL_CODES: Record<ServiceUrlSetting, string> = { authUrl: 'INVALID_AUTH_URL', baseUrl: 'INVALID_BASE_URL' };

/**
 * Why `url` cannot be used as the service address in `setting`, or undefined when it can. Only
 * https: the key and the tokens travel over it, and verification is never off. An address typed
 * without its `https://` is the usual slip. The value itself is left out of the message: a
 * mistyped one may hold anything.
 */
export function serviceUrlProblem(url: string, setting: ServiceUrlSetting): ServiceError | undefined {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol === 'https:') return undefined;
  return new ServiceError(
    'invalidRequest',
    `The ${ADDRESS_NAMES[setting]} is not an https:// address${protocol === 'http:' ? ' (plain http would send the key unencrypted)' : ''}.`,
    {
      code: INVALID_URL_CODES[setting],
    },
  );
}

/** The setting an error of serviceUrlProblem names, or undefined for any other error. */
export function invalidUrlSetting(error: ServiceError): ServiceUrlSetting | undefined {
  return (Object.keys(INVALID_URL_CODES) as ServiceUrlSetting[]).find((key) => INVALID_URL_CODES[key] === error.code);
}

/** The first problem with the two addresses, the token exchange's first as it is used first. */
export function serviceUrlsProblem(urls: Record<ServiceUrlSetting, string>): ServiceError | undefined {
  return serviceUrlProblem(urls.authUrl, 'authUrl') ?? serviceUrlProblem(urls.baseUrl, 'baseUrl');
}
