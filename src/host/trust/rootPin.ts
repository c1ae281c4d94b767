import * as z from 'zod';
import { RUSSIAN_TRUSTED_ROOT_PIN, type CertificatePin } from '../../core';
import type { Log } from '../log';

/**
 * The integration tests point the pin at the emulator's own CA and its download address through
 * this environment variable, set for the VS Code process they start. It is deliberately not a
 * setting: a workspace's settings could then pin a CA of its own choosing.
 */
const TEST_PIN_VARIABLE = 'GIGACHAT_TEST_ROOT_CA_PIN';

const TestPin = z.object({
  subject: z.string().min(1).max(500),
  sha256: z.string().regex(/^([0-9A-Fa-f]{2}:?){32}$/),
  downloadUrls: z
    .array(z.url({ protocol: /^https$/ }))
    .min(1)
    .max(5),
});

/** The pin of the root users are offered to trust: the Russian Trusted Root CA, unless a test overrides it. */
export function activeRootPin(log: Log, env: NodeJS.ProcessEnv = process.env): CertificatePin {
  const override = env[TEST_PIN_VARIABLE];
  if (!override) return RUSSIAN_TRUSTED_ROOT_PIN;
  let parsed: ReturnType<typeof TestPin.safeParse>;
  try {
    parsed = TestPin.safeParse(JSON.parse(override));
  } catch {
    parsed = TestPin.safeParse(undefined);
  }
  if (!parsed.success) {
    log.warn(`${TEST_PIN_VARIABLE} is set but is not a valid pin; the Russian Trusted Root CA's pin is used.`);
    return RUSSIAN_TRUSTED_ROOT_PIN;
  }
  log.warn(`${TEST_PIN_VARIABLE} is set: the root certificate offered for trust is "${parsed.data.subject}" (SHA-256 ${parsed.data.sha256}), for testing.`);
  return { ...parsed.data, moreInformation: RUSSIAN_TRUSTED_ROOT_PIN.moreInformation };
}
