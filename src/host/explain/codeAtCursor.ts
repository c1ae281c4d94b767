import * as vscode from 'vscode';

/** The kinds of symbol a question about "the code here" means: a function, a method, a class. */
const ENCLOSING_KINDS = new Set([
  vscode.SymbolKind.Function,
  vscode.SymbolKind.Method,
  vscode.SymbolKind.Constructor,
  vscode.SymbolKind.Class,
  vscode.SymbolKind.Interface,
  vscode.SymbolKind.Enum,
]);

/**
 * The code a command about "this code" means: the selection; without one, the innermost function,
 * method or class around the cursor, as the language's symbols give it; without those, the whole
 * file. Undefined for an empty file.
 */
export async function codeAtCursor(editor: vscode.TextEditor): Promise<vscode.Range | undefined> {
  if (!editor.selection.isEmpty) return editor.selection;
  const symbols = await vscode.commands
    .executeCommand<vscode.DocumentSymbol[] | undefined>('vscode.executeDocumentSymbolProvider', editor.document.uri)
    .then(undefined, () => undefined);
  const enclosing = innermost(symbols ?? [], editor.selection.active);
  if (enclosing) return enclosing.range;
  const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
  return editor.document.getText().trim() ? editor.document.validateRange(whole) : undefined;
}

/** The deepest symbol of ENCLOSING_KINDS whose range holds `position`. */
function innermost(symbols: readonly vscode.DocumentSymbol[], position: vscode.Position): vscode.DocumentSymbol | undefined {
  for (const symbol of symbols) {
    // Only DocumentSymbols have a range and children (a provider may give SymbolInformation instead).
    if (!symbol.range?.contains(position)) continue;
    const deeper = innermost(symbol.children ?? [], position);
    if (deeper) return deeper;
    if (ENCLOSING_KINDS.has(symbol.kind)) return symbol;
  }
  return undefined;
}
