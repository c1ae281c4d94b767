import * as vscode from 'vscode';
import { isServiceError, ProxyRoutes, redactUrl, type CertificatePin, type CheckStep, type CheckStepId, type ServiceUrlSetting } from '../../core';
import { settingId } from '../../shared/settings';
import type { TurnError } from '../../shared/protocol';
import type { Connection } from '../clientProvider';
import { describeError } from '../errors/errorDescription';
import { actionLabel } from '../errors/errorActions';
import type { Log } from '../log';
import { countMessage } from '../countMessage';

export interface ReportContext {
  connection: Connection;
  pin: CertificatePin;
  /** GigaChat's own store holds the pinned root (the system may trust it independently). */
  pinnedRootTrusted: boolean;
  checkedAt: Date;
  log: Log;
}

export interface Report {
  text: string;
  /** The step that failed, and what the user can do about it (the same words and buttons as errors). */
  failure?: { step: CheckStep; name: string; described: TurnError };
}

const PASSED = '✓';
const FAILED = '✗';
const SKIPPED = '–';
const INDENT = '    ';

export function stepName(id: CheckStepId): string {
  const names: Record<CheckStepId, () => string> = {
    settings: () => vscode.l10n.t('Service address'),
    dns: () => vscode.l10n.t('Name lookup'),
    tls: () => vscode.l10n.t('Secure connection'),
    token: () => vscode.l10n.t('Access token'),
    model: () => vscode.l10n.t('Model call'),
  };
  return names[id]();
}

/** What a step is about, for a person: the settings step names the setting that holds the address at fault. */
export function stepTarget(step: Pick<CheckStep, 'id' | 'target'>): string {
  return step.id === 'settings' ? settingId(step.target as ServiceUrlSetting) : step.target;
}

/**
 * The connection check in plain words, for a person and for their IT department: what was
 * checked with which settings, each step passed (✓) or failed (✗) with the fix, and the steps
 * that could not run after a failure (–).
 */
export function renderReport(steps: readonly CheckStep[], context: ReportContext): Report {
  const failed = steps.find((step) => step.status === 'failed');
  const error = failed?.error ? describeError(failed.error, context.log) : undefined;
  // This is the check: checking again is its notification's Retry.
  const described = error && { ...error, actions: error.actions.filter((action) => action !== 'checkConnection') };
  const failure = failed && described ? { step: failed, name: stepName(failed.id), described } : undefined;
  const lines = [
    `# ${vscode.l10n.t('GigaChat connection check')}`,
    '',
    failure
      ? `${FAILED} ${vscode.l10n.t('The check failed at the step "{0}". The details and the fix are below.', failure.name)}`
      : `${PASSED} ${vscode.l10n.t('Everything works: GigaChat is reachable and accepts your authorization key.')}`,
    '',
    ...settingsLines(context),
    '',
    `## ${vscode.l10n.t('Steps')}`,
    '',
  ];
  for (const step of steps) lines.push(...stepLines(step, context, failure?.described.message ?? ''), '');
  if (failure) {
    lines.push(`## ${vscode.l10n.t('What to do')}`, '', failure.described.message);
    const buttons = failure.described.actions.map(actionLabel).join(' · ');
    if (buttons) lines.push('', vscode.l10n.t('The notification of this check has the buttons: {0}.', buttons));
    if (failure.described.requestId) lines.push('', vscode.l10n.t('Request ID: {0}', failure.described.requestId));
    lines.push('');
  }
  return { text: lines.join('\n'), failure };
}

/** The proxy the model API's requests take, chosen as the requests choose it. */
function proxyLine({ settings, proxy: options }: Connection): string {
  try {
    const proxy = new ProxyRoutes(options).for(settings.baseUrl);
    return proxy ? vscode.l10n.t('Proxy: {0}', proxy.address) : vscode.l10n.t('Proxy: none, direct connection');
  } catch (error) {
    // An address that is no proxy URL (shown without credentials); the failed step says what to do.
    return vscode.l10n.t('Proxy: {0}', isServiceError(error) ? (error.proxy?.address ?? '') : '');
  }
}

function settingsLines({ connection, pinnedRootTrusted, checkedAt }: ReportContext): string[] {
  const { settings } = connection;
  return [
    `- ${vscode.l10n.t('Checked: {0}', checkedAt.toLocaleString(vscode.env.language))}`,
    `- ${vscode.l10n.t('Token exchange: {0}', redactUrl(settings.authUrl))}`,
    `- ${vscode.l10n.t('Model API: {0}', redactUrl(settings.baseUrl))}`,
    `- ${proxyLine(connection)}`,
    `- ${
      settings.caCertificates.length
        ? vscode.l10n.t('Extra trusted certificates (gigachat.caCertificates): {0}', settings.caCertificates.join(', '))
        : vscode.l10n.t('Extra trusted certificates (gigachat.caCertificates): none')
    }`,
    `- ${
      pinnedRootTrusted ? vscode.l10n.t('Russian Trusted Root CA: trusted by GigaChat') : vscode.l10n.t('Russian Trusted Root CA: not trusted by GigaChat')
    }`,
  ];
}

/** `fix` is the failed step's explanation, as the rest of the extension words the error. */
function stepLines(step: CheckStep, context: ReportContext, fix: string): string[] {
  const name = stepName(step.id);
  if (step.status === 'skipped') return [`${SKIPPED} ${vscode.l10n.t('{0} ({1}): not checked, because an earlier step failed.', name, stepTarget(step))}`];
  switch (step.id) {
    case 'settings':
      return [`${step.status === 'passed' ? PASSED : FAILED} ${name} (${stepTarget(step)})${step.status === 'passed' ? '' : `: ${fix}`}`];
    case 'dns':
      return dnsLines(step, name);
    case 'tls':
      return tlsLines(step, name, context.pin);
    case 'token':
      return step.status === 'passed'
        ? [
            `${PASSED} ${vscode.l10n.t(
              '{0}: the authorization key was accepted (scope {1}); the token is valid until {2}.',
              name,
              context.connection.settings.scope,
              new Date(step.tokenExpiresAtMs ?? 0).toLocaleTimeString(vscode.env.language),
            )}`,
          ]
        : [`${FAILED} ${name}: ${fix}`];
    case 'model': {
      const models = step.models ?? [];
      const shown = models.length > 8 ? `${models.slice(0, 8).join(', ')}, …` : models.join(', ');
      return step.status === 'passed'
        ? [`${PASSED} ${countMessage('{0}: GigaChat lists {1|# model|# models}: {2}.', name, models.length, shown)}`]
        : [`${FAILED} ${name}: ${fix}`];
    }
  }
}

function dnsLines(step: CheckStep, name: string): string[] {
  if (step.status === 'failed')
    return [`${FAILED} ${vscode.l10n.t('{0}: {1} could not be found ({2}).', name, step.lookedUp ?? step.target, step.error?.code ?? '')}`];
  const addresses = (step.addresses ?? []).join(', ');
  return step.proxy
    ? [`${PASSED} ${vscode.l10n.t('{0}: the proxy {1} → {2}. The proxy looks up {3} itself.', name, step.lookedUp ?? '', addresses, step.target)}`]
    : [`${PASSED} ${vscode.l10n.t('{0}: {1} → {2}', name, step.target, addresses)}`];
}

function tlsLines(step: CheckStep, name: string, pin: CertificatePin): string[] {
  const chain = step.tls?.chain ?? [];
  const lines: string[] = [];
  if (step.status === 'passed') {
    lines.push(
      `${PASSED} ${vscode.l10n.t('{0} to {1} ({2}). The certificate chain, from the server to its root:', name, step.target, step.tls?.protocol ?? 'TLS')}`,
    );
    chain.forEach((certificate, index) => {
      const isRoot = index === chain.length - 1 && certificate.selfIssued;
      lines.push(`${INDENT}${index + 1}. ${isRoot ? vscode.l10n.t('{0} (root, trusted)', certificate.subject) : certificate.subject}`);
    });
  } else if (!step.tls) {
    lines.push(`${FAILED} ${vscode.l10n.t('{0} to {1}: no connection ({2}).', name, step.target, step.error?.code ?? step.error?.kind ?? '')}`);
  } else {
    lines.push(
      `${FAILED} ${vscode.l10n.t(
        '{0} to {1}: the certificate could not be verified ({2}). The chain as the server sent it:',
        name,
        step.target,
        step.tls.errorCode ?? '',
      )}`,
    );
    chain.forEach((certificate, index) => lines.push(`${INDENT}${index + 1}. ${vscode.l10n.t('{0}, issued by {1}', certificate.subject, certificate.issuer)}`));
    const last = chain.at(-1);
    if (last) {
      const root = last.selfIssued ? last.subject : last.issuer;
      lines.push(`${INDENT}${vscode.l10n.t('The chain ends in the root "{0}", which is not trusted here.', root)}`);
      lines.push(
        `${INDENT}${
          sameName(root, pin.subject)
            ? vscode.l10n.t("This is the Russian Trusted Root CA, which issues GigaChat's certificates: trust it to connect.")
            : vscode.l10n.t(
                'This is not the Russian Trusted Root CA: a company proxy or antivirus probably inspects secure connections. ' +
                  'Trust its root certificate (your IT department has it).',
              )
        }`,
      );
    }
  }
  if (step.proxy) lines.push(`${INDENT}${vscode.l10n.t('Through the proxy {0}.', step.proxy)}`);
  return lines;
}

/** Distinguished names compared as people write them: case, spaces around commas aside. */
function sameName(a: string, b: string): boolean {
  const normal = (name: string) =>
    name
      .toLowerCase()
      .replace(/\s*,\s*/g, ',')
      .trim();
  return normal(a) === normal(b);
}
