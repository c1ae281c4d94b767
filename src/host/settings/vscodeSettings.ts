import * as vscode from 'vscode';
import type { ProxyOptions } from '../../core';
import { SETTINGS_SECTION, type SettingKey, type SettingTypes } from '../../shared/settings';
import { type BoundedSetting, withinBounds } from './settingBounds';
import { settingsFor, type SettingEffect } from './settingKeys';
import type { Settings, SettingsChange, SettingsReader } from './settingsReader';

/** The settings whose change the reader reports: the extension's, and VS Code's that it follows. */
const WATCHED = [SETTINGS_SECTION, ...settingsFor('connection'), ...settingsFor('searchFiles')];

/**
 * The settings as VS Code keeps them (settings.json, the Settings editor), read fresh at each call.
 * The one place the extension asks VS Code for its own configuration; services.ts builds it once.
 */
export class VsCodeSettings implements SettingsReader, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<SettingsChange>();
  readonly onDidChange = this.changed.event;
  private readonly listener = vscode.workspace.onDidChangeConfiguration((event) => {
    if (WATCHED.some((section) => event.affectsConfiguration(section))) this.changed.fire(settingsChange(event));
  });

  /** Asked without a default, VS Code answers with package.json's when the user set none, so package.json stays the one place defaults are written. */
  get<K extends SettingKey>(key: K): SettingTypes[K] {
    return section().get(key) as SettingTypes[K];
  }

  /** A number from settings.json, which may hold anything: kept within bounds, package.json's default when not a number. */
  clamped(key: BoundedSetting): number {
    return withinBounds(key, this.get(key), section().inspect(key)?.defaultValue as number);
  }

  settings(): Settings {
    return {
      authUrl: this.get('authUrl'),
      baseUrl: this.get('baseUrl'),
      scope: this.get('scope'),
      model: this.get('model'),
      embeddingsModel: this.get('embeddingsModel'),
      temperature: this.get('temperature') ?? undefined,
      maxTokens: this.get('maxTokens') ?? undefined,
      reasoningEffort: this.get('reasoningEffort') || undefined,
      systemPrompt: this.get('systemPrompt'),
      caCertificates: this.get('caCertificates'),
      requestTimeout: this.clamped('requestTimeout'),
    };
  }

  proxy(): ProxyOptions {
    const http = vscode.workspace.getConfiguration('http');
    const url = http.get<string>('proxy')?.trim();
    const noProxy = http.get<string[]>('noProxy', []);
    const authorization = http.get<string | null>('proxyAuthorization')?.trim();
    return { url: url || undefined, noProxy: noProxy.length ? noProxy.join(',') : undefined, authorization: authorization || undefined };
  }

  async write<K extends SettingKey>(key: K, value: SettingTypes[K], where: 'inUse' | 'user' = 'inUse'): Promise<void> {
    const inWorkspace = where === 'inUse' && section().inspect(key)?.workspaceValue !== undefined;
    await section().update(key, value, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.listener.dispose();
    this.changed.dispose();
  }
}

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION);
}

function settingsChange(event: vscode.ConfigurationChangeEvent): SettingsChange {
  return {
    // A group's id (`gigachat.completions`) is the prefix of its settings', so VS Code answers for each of them.
    affects: (key) => event.affectsConfiguration(`${SETTINGS_SECTION}.${key}`),
    callsFor: (effect: SettingEffect) => settingsFor(effect).some((id) => event.affectsConfiguration(id)),
  };
}
