/**
 * The extension's settings as the features see them: one reader, built by services.ts and handed
 * to each feature, so no feature reaches for VS Code's configuration itself (test/lint/settings.mjs
 * refuses it) and the unit tests can hand in settings of their own. Every read is fresh, so a
 * change applies at the next request, without a reload.
 */
import type * as vscode from 'vscode';
import type { ProxyOptions, ReasoningEffort } from '../../core';
import type { SettingKey, SettingTypes } from '../../shared/settings';
import type { BoundedSetting } from './settingBounds';
import type { SettingEffect } from './settingKeys';

export interface SettingsReader {
  /** A setting's value; package.json's default when the user set none. */
  get<K extends SettingKey>(key: K): SettingTypes[K];
  /** A number the user may have set to anything, kept within its bounds (settingBounds.ts). */
  clamped(key: BoundedSetting): number;
  /** The settings a connection and a request are made with. */
  settings(): Settings;
  /** VS Code's own proxy settings, which the extension follows; unset ones fall back to the environment. */
  proxy(): ProxyOptions;
  /**
   * Writes a setting where the value in use comes from: the workspace's settings when they set
   * one (the user's would be overridden by it), else the user's; `user` writes the user's always.
   */
  write<K extends SettingKey>(key: K, value: SettingTypes[K], where?: 'inUse' | 'user'): Promise<void>;
  /** Fires when one of the extension's settings, or one of VS Code's it follows (the proxy, the excluded files), changes. */
  readonly onDidChange: vscode.Event<SettingsChange>;
}

export interface SettingsChange {
  /** Whether `key` changed; a group (`completions`) covers each of its settings. */
  affects(key: SettingKey | 'completions'): boolean;
  /** Whether the change calls for `effect` (settingKeys.ts): a new client, a new search indexer, the searched files worked out again. */
  callsFor(effect: Exclude<SettingEffect, 'nextRequest'>): boolean;
}

/** The settings a connection and a request are made with. */
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
