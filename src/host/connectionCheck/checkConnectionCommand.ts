import * as vscode from 'vscode';
import { checkConnection, ServiceError, type CheckStep } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { Disposable } from '../dispose';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TrustedRoot } from '../trust/trustedRoot';
import { renderReport, stepName, stepTarget, type Report } from './connectionReport';
import { ReportDocument } from './reportDocument';
import { notify } from '../notify';

/**
 * "GigaChat: Check Connection" (in the palette and in the chat view's title menu; extension.ts
 * registers the command): `run` is what it does, with the report's documents in place.
 */
export class ConnectionCheck extends Disposable {
  private readonly reports = this._register(new ReportDocument());

  constructor(
    private readonly clients: ClientProvider,
    private readonly trustedRoot: TrustedRoot,
    private readonly log: Log,
  ) {
    super();
  }

  run(): Promise<CheckStep[] | undefined> {
    return runConnectionCheck(this.clients, this.trustedRoot, this.reports, this.log);
  }
}

/**
 * Runs the check with progress, opens the report, and for a failure shows a notification with
 * the same buttons the error would have in the chat; a fix that works runs the check again.
 * Resolves with the steps (undefined when cancelled) once the report is open.
 */
async function runConnectionCheck(clients: ClientProvider, trustedRoot: TrustedRoot, reports: ReportDocument, log: Log): Promise<CheckStep[] | undefined> {
  // Read once for the whole check (the trusted root's file among it), and the client built from it if there is none yet.
  const connection = await clients.connection();
  const client = await clients.get(connection);
  const checkedAt = new Date();
  let steps: CheckStep[];
  try {
    steps = await withCancellableProgress(vscode.l10n.t('Checking the connection to GigaChat'), (signal, report) =>
      checkConnection({
        authUrl: connection.settings.authUrl,
        baseUrl: connection.settings.baseUrl,
        ca: connection.ca,
        proxy: connection.proxy,
        client,
        signal,
        onStep: (step) => report(`${stepName(step.id)}: ${stepTarget(step)}`),
      }),
    );
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'cancelled') return undefined;
    throw error;
  }
  const report = renderReport(steps, { connection, pin: trustedRoot.pin, pinnedRootTrusted: connection.pinnedRoot !== undefined, checkedAt, log });
  log.info(`Connection check:\n${report.text}`);
  await reports.show(report.text);
  if (report.failure) void offerFix(report.failure, log, () => runConnectionCheck(clients, trustedRoot, reports, log));
  else void notify('info', vscode.l10n.t('GigaChat connection check: every step passed.'));
  return steps;
}

async function offerFix(failure: NonNullable<Report['failure']>, log: Log, checkAgain: () => unknown): Promise<void> {
  const message = vscode.l10n.t('GigaChat connection check failed at "{0}". The report explains why and what to do.', failure.name);
  await offerErrorActions('error', message, failure.described.actions, log, checkAgain);
}
