/**
 * What the unit tests load for `vscode` (esbuild.js resolves the module to this file when it builds
 * them): just enough of VS Code for host logic to run under Node, nothing VS Code itself must be
 * trusted to do (those parts are tested in a real VS Code, test/integration). English texts as
 * VS Code gives them without a translation; settings with package.json's defaults, set by the test
 * (`standIn.settings`); notifications recorded, answered by the test (`standIn.messages`).
 * A test imports `standIn` from here; the code under test imports `vscode` and gets the same module.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repoRoot';

type Listener<T> = (event: T) => unknown;

export class Disposable {
  static from(...disposables: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => disposables.forEach((disposable) => disposable.dispose()));
  }
  constructor(private readonly callOnDispose: () => unknown) {}
  dispose(): void {
    this.callOnDispose();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  readonly event = (listener: Listener<T>, thisArgs?: unknown, disposables?: Disposable[]): Disposable => {
    const bound: Listener<T> = (event) => listener.call(thisArgs, event);
    this.listeners.add(bound);
    const subscription = new Disposable(() => this.listeners.delete(bound));
    disposables?.push(subscription);
    return subscription;
  };
  fire(event: T): void {
    for (const listener of [...this.listeners]) listener(event);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

/** A `file:` or `scheme://authority/path` address; enough for paths and links, not VS Code's every rule. */
export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  static file(fsPath: string): Uri {
    return new Uri('file', '', fsPath.replace(/\\/g, '/'));
  }
  static parse(value: string): Uri {
    const url = new URL(value);
    return new Uri(url.protocol.replace(/:$/, ''), url.host, decodeURIComponent(url.pathname), url.search.replace(/^\?/, ''), url.hash.replace(/^#/, ''));
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...segments) });
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

/** `vscode.l10n.t` as VS Code answers in English: `{0}` or `{name}` filled from the arguments, the rest left as written. */
export const l10n = {
  t(message: string | { message: string; args?: unknown[] | Record<string, unknown> }, ...rest: unknown[]): string {
    const { text, args } =
      typeof message === 'string'
        ? { text: message, args: rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as Record<string, unknown>) : rest }
        : { text: message.message, args: message.args ?? {} };
    if (Object.keys(args).length === 0) return text;
    const values = args as Record<string, string | number | boolean | undefined>;
    return text.replace(/\{([^}]+)\}/g, (match, key: string) => String(values[key] ?? match));
  },
};

/** The settings: package.json's defaults under the user's and the workspace's values the test sets. */
class SettingsStandIn {
  private readonly defaults = packageDefaults();
  private readonly user = new Map<string, unknown>();
  private readonly workspace = new Map<string, unknown>();
  readonly changed = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();

  /** Sets (or with `undefined` removes) a setting by its full id, and tells the listeners, as the Settings editor would. */
  set(id: string, value: unknown, target: ConfigurationTarget = ConfigurationTarget.Global): void {
    const values = target === ConfigurationTarget.Global ? this.user : this.workspace;
    if (value === undefined) values.delete(id);
    else values.set(id, structuredClone(value));
    this.changed.fire({ affectsConfiguration: (section) => section === id || id.startsWith(`${section}.`) || section.startsWith(`${id}.`) });
  }

  /** Back to package.json's defaults, without telling anyone: between tests. */
  reset(): void {
    this.user.clear();
    this.workspace.clear();
  }

  inspect(id: string): { key: string; defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown } {
    return { key: id, defaultValue: this.defaults.get(id), globalValue: this.user.get(id), workspaceValue: this.workspace.get(id) };
  }

  value(id: string): unknown {
    // A value set to null is the user's null, as in VS Code: only a value not set at all falls through.
    const { defaultValue, globalValue, workspaceValue } = this.inspect(id);
    const set = [workspaceValue, globalValue].find((value) => value !== undefined);
    return structuredClone(set === undefined ? defaultValue : set);
  }

  section(section: string | undefined) {
    const id = (key: string) => (section ? `${section}.${key}` : key);
    return {
      get: <T>(key: string, fallback?: T): T | undefined => (this.value(id(key)) as T | undefined) ?? fallback,
      has: (key: string) => this.value(id(key)) !== undefined,
      inspect: (key: string) => this.inspect(id(key)),
      update: async (key: string, value: unknown, target?: ConfigurationTarget | boolean) =>
        this.set(id(key), value, target === ConfigurationTarget.Workspace || target === false ? ConfigurationTarget.Workspace : ConfigurationTarget.Global),
    };
  }
}

/** Every default package.json declares, by full id. */
function packageDefaults(): Map<string, unknown> {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> }[] };
  };
  return new Map(manifest.contributes.configuration.flatMap((section) => Object.entries(section.properties).map(([id, { default: value }]) => [id, value])));
}

type MessageKind = 'info' | 'warning' | 'error';

/** A notification or dialog as the extension asked for it. */
export interface ShownMessage {
  kind: MessageKind;
  message: string;
  options: { modal?: boolean; detail?: string };
  items: string[];
}

/** The notifications shown, and what the user answers each with (dismissed unless the test says otherwise). */
class MessagesStandIn {
  readonly shown: ShownMessage[] = [];
  answer: (shown: ShownMessage) => string | undefined = () => undefined;

  show(kind: MessageKind) {
    return async (message: string, ...rest: unknown[]): Promise<string | undefined> => {
      const withOptions = typeof rest[0] === 'object' && rest[0] !== null;
      const shown: ShownMessage = {
        kind,
        message,
        options: withOptions ? (rest[0] as ShownMessage['options']) : {},
        items: (withOptions ? rest.slice(1) : rest) as string[],
      };
      this.shown.push(shown);
      return this.answer(shown);
    };
  }

  reset(): void {
    this.shown.length = 0;
    this.answer = () => undefined;
  }
}

/** A log channel that keeps its lines. */
class LogChannelStandIn {
  readonly lines: { level: string; message: string }[] = [];
  constructor(readonly name: string) {}
  private add = (level: string) => (message: string) => void this.lines.push({ level, message });
  trace = this.add('trace');
  debug = this.add('debug');
  info = this.add('info');
  warn = this.add('warn');
  error = this.add('error');
  appendLine = this.add('info');
  show(): void {}
  dispose(): void {}
}

/** What the test sets and reads. */
export const standIn = {
  settings: new SettingsStandIn(),
  messages: new MessagesStandIn(),
  logChannels: [] as LogChannelStandIn[],
  /** The commands the code ran, with their arguments. */
  commands: [] as { command: string; args: unknown[] }[],
  /** The addresses the code opened in the browser. */
  opened: [] as Uri[],
  reset(): void {
    this.settings.reset();
    this.messages.reset();
    this.logChannels.length = 0;
    this.commands.length = 0;
    this.opened.length = 0;
  },
};

export const workspace = {
  isTrusted: true,
  getConfiguration: (section?: string) => standIn.settings.section(section),
  onDidChangeConfiguration: standIn.settings.changed.event,
};

export const window = {
  showInformationMessage: standIn.messages.show('info'),
  showWarningMessage: standIn.messages.show('warning'),
  showErrorMessage: standIn.messages.show('error'),
  createOutputChannel(name: string): LogChannelStandIn {
    const channel = new LogChannelStandIn(name);
    standIn.logChannels.push(channel);
    return channel;
  },
};

export const commands = {
  async executeCommand(command: string, ...args: unknown[]): Promise<undefined> {
    standIn.commands.push({ command, args });
    return undefined;
  },
};

export const env = {
  language: 'en',
  async openExternal(uri: Uri): Promise<boolean> {
    standIn.opened.push(uri);
    return true;
  },
};
