import * as vscode from 'vscode';
import type { ProxyOptions, ReasoningEffort } from '../../core';
import { SETTINGS_SECTION, type SettingKey, type SettingTypes } from '../../shared/settings';
import { type BoundedSetting, withinBounds } from './settingBounds';
import { settingsFor } from './settingKeys';

/** The extension's settings, read fresh each time so changes apply without a reload. */
export interface Settings {
  authUrl: string;
  baseUrl: string;
  scope: string;
  model: string;
  embeddingsModel: string;
  temperature?: number;
  maxTokens?: number;
  /** For a model that reasons before answering; undefined leaves it to the model. */
  reasoningEffort?: ReasoningEffort;
  systemPrompt: string;
  caCertificates: string[];
  /** Longest wait for an answer, and longest silence inside a streamed one, in seconds. */
  requestTimeout: number;
}

export function readSettings(): Settings {
  return {
    authUrl: readSetting('authUrl'),
    baseUrl: readSetting('baseUrl'),
    scope: readSetting('scope'),
    model: readSetting('model'),
    embeddingsModel: readSetting('embeddingsModel'),
    temperature: readSetting('temperature') ?? undefined,
    maxTokens: readSetting('maxTokens') ?? undefined,
    reasoningEffort: readSetting('reasoningEffort') || undefined,
    systemPrompt: readSetting('systemPrompt'),
    caCertificates: readSetting('caCertificates'),
    requestTimeout: clampedSetting('requestTimeout'),
  };
}

/**
 * A setting's value. Asked without a default, VS Code answers with package.json's when the user
 * set none, so package.json stays the one place defaults are written.
 */
export function readSetting<K extends SettingKey>(key: K): SettingTypes[K] {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get(key) as SettingTypes[K];
}

/** Where a setting's value comes from: package.json's default, the user's settings, the workspace's. */
export function inspectSetting<K extends SettingKey>(key: K) {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<SettingTypes[K]>(key);
}

export function writeSetting<K extends SettingKey>(key: K, value: SettingTypes[K], target: vscode.ConfigurationTarget): Thenable<void> {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, value, target);
}

/** A number from settings.json, which may hold anything: kept within bounds, package.json's default when not a number. */
export function clampedSetting(key: BoundedSetting): number {
  return withinBounds(key, readSetting(key), inspectSetting(key)?.defaultValue as number);
}

/** Settings that change how the client connects: a new client is built when one of them changes. */
export const CONNECTION_SETTINGS = [...settingsFor('connection'), 'http.proxy', 'http.noProxy', 'http.proxyAuthorization'];

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
