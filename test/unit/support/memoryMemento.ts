import type * as vscode from 'vscode';

/** An in-memory Memento that, like VS Code's, hands back a JSON copy of what was stored. */
export class MemoryMemento implements vscode.Memento {
  private readonly values = new Map<string, string>();
  /** How many times it was written, and how much it holds: what VS Code writes at each update. */
  updates = 0;
  size(): number {
    return [...this.values.values()].reduce((sum, value) => sum + value.length, 0);
  }
  keys(): readonly string[] {
    return [...this.values.keys()];
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const raw = this.values.get(key);
    return raw === undefined ? defaultValue : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.updates += 1;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.stringify(value));
  }
}
