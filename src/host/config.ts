import * as vscode from 'vscode';
import type { ProxyOptions } from '../core';

/** The extension's settings, read fresh each time so changes apply without a reload. */
export interface Settings {
  authUrl: string;
  baseUrl: string;
  scope: string;
  model: string;
  embeddingsModel: string;
  temperature?: number;
  maxTokens?: number;
  systemPrompt: string;
  caCertificates: string[];
  /** Longest wait for an answer, and longest silence inside a streamed one, in seconds. */
  requestTimeout: number;
}

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('gigachat');
  return {
    authUrl: config.get('authUrl', 'https://ngw.devices.sberbank.ru:9443/api/v2/oauth'),
    baseUrl: config.get('baseUrl', 'https://gigachat.devices.sberbank.ru/api/v1'),
    scope: config.get('scope', 'GIGACHAT_API_PERS'),
    model: config.get('model', 'GigaChat'),
    embeddingsModel: config.get('embeddingsModel', 'Embeddings'),
    temperature: config.get<number | null>('temperature', null) ?? undefined,
    maxTokens: config.get<number | null>('maxTokens', null) ?? undefined,
    systemPrompt: config.get('systemPrompt', ''),
    caCertificates: config.get<string[]>('caCertificates', []),
    requestTimeout: clamp(config.get<number>('requestTimeout', 90), 1, 600, 90),
  };
}

/** Settings that change how the client connects: a new client is built when one of them changes. */
export const CONNECTION_SETTINGS = ['gigachat.authUrl', 'gigachat.baseUrl', 'gigachat.scope', 'gigachat.caCertificates', 'gigachat.requestTimeout', 'http.proxy', 'http.noProxy', 'http.proxyAuthorization'];

export function affectsConnection(event: vscode.ConfigurationChangeEvent): boolean {
  return CONNECTION_SETTINGS.some((section) => event.affectsConfiguration(section));
}

/** VS Code's own proxy settings, honoured for both hosts; unset ones fall back to the environment. */
export function proxySettings(): ProxyOptions {
  const http = vscode.workspace.getConfiguration('http');
  const url = http.get<string>('proxy')?.trim();
  const noProxy = http.get<string[]>('noProxy', []);
  const authorization = http.get<string | null>('proxyAuthorization')?.trim();
  return { url: url || undefined, noProxy: noProxy.length ? noProxy.join(',') : undefined, authorization: authorization || undefined };
}

/** A number from settings.json, which the user may have edited by hand into anything. */
function clamp(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
}
