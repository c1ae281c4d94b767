import * as z from 'zod';

/**
 * zod compiles fast object parsers with `new Function` unless told not to. The webview's CSP forbids
 * eval, and even zod's probe for it would be reported as a CSP violation. The setting is read when
 * a schema is created, so this module must be imported before the protocol schemas.
 */
z.config({ jitless: true });
