import * as vscode from 'vscode';
import type { Services } from './services';
import { notify } from './notify';
// eslint-disable-next-line no-restricted-imports -- through the core's index, the whole core would go into dist/extension.js, which activation loads
import { messageOf } from '../core/base/errorMessage';

/** Gives the features their shared services, loading and building them on the first call; `loaded()` gives them only if that call came. */
export type ServicesLoader = (() => Services) & { loaded(): Services | undefined };

/**
 * Activation only registers commands and views; the code behind them (dist/services.js, built from
 * services.ts) is required the first time one of them is used. `require` resolves next to this
 * bundle, dist/extension.js; esbuild.js keeps the path as it is.
 */
export function servicesLoader(context: vscode.ExtensionContext): ServicesLoader {
  let services: Services | undefined;
  const load = () => {
    if (services) return services;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the services bundle loads on first use, not at activation
      const module = require('./services.js') as typeof import('./services');
      services = module.createServices(context);
      return services;
    } catch (error) {
      // VS Code would only say that the command failed: say why.
      void notify('error', vscode.l10n.t('GigaChat could not start: {0}', messageOf(error)));
      throw error;
    }
  };
  return Object.assign(load, { loaded: () => services });
}
