import * as vscode from 'vscode';

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
  };
}

/** Settings that change how the client connects: a new client is built when one of them changes. */
export const CONNECTION_SETTINGS = ['gigachat.authUrl', 'gigachat.baseUrl', 'gigachat.scope', 'gigachat.caCertificates', 'http.proxy', 'http.noProxy'];

export function affectsConnection(event: vscode.ConfigurationChangeEvent): boolean {
  return CONNECTION_SETTINGS.some((section) => event.affectsConfiguration(section));
}

/** VS Code's own proxy settings, honoured for both hosts. */
export function proxySettings(): { url?: string; noProxy?: string } {
  const http = vscode.workspace.getConfiguration('http');
  const url = http.get<string>('proxy')?.trim();
  const noProxy = http.get<string[]>('noProxy', []);
  return { url: url || undefined, noProxy: noProxy.length ? noProxy.join(',') : undefined };
}
