import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as path from 'node:path';
import ts from 'typescript';
import { webviewStrings } from '../../../src/shared/strings';

/**
 * Holds every message of the extension to the rule of `src/shared/messageFormat.ts`: a number given
 * to a message is a count, and its placeholder names its forms (`{0|# file|# files}`), so Russian
 * never reads "3 файлов". The sources are read with TypeScript's type checker: a message is the
 * first argument of `vscode.l10n.t` or `countMessage` (a literal), or a chat view string given to the
 * webview's `format`; a count is an argument whose type is a number, or a number formatted for the
 * locale (`n.toLocaleString()`, `numbers.format(n)`). `String(n)` is how a number that is not a
 * count says so.
 */

interface Use {
  where: string;
  message: string;
  /** The placeholders (0-based) that are given a count. */
  counts: number[];
  through: 'l10n.t' | 'countMessage' | 'format';
  unread: boolean;
}

function sourceProgram(): ts.Program {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram({
    rootNames: parsed.fileNames.filter((file) => file.startsWith(path.join(root, 'src') + path.sep)),
    options: { ...parsed.options, noEmit: true },
  });
}

/** A string literal, or literals joined with `+` (a long message). */
function literalText(node: ts.Expression): string | undefined {
  if (ts.isStringLiteralLike(node)) return node.text;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalText(node.left);
    const right = literalText(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/** `strings.x` or `webviewStrings.x`: the English text of a chat view string. */
function chatViewString(node: ts.Expression): string | undefined {
  if (!ts.isPropertyAccessExpression(node) || !/(?:^|\.)(?:webviewStrings|strings)$/.test(node.expression.getText())) return undefined;
  const key = node.name.text;
  return key in webviewStrings ? webviewStrings[key as keyof typeof webviewStrings] : undefined;
}

function isNumber(checker: ts.TypeChecker, node: ts.Expression): boolean {
  return (checker.getTypeAtLocation(node).flags & ts.TypeFlags.NumberLike) !== 0;
}

/**
 * A number, or a number formatted on its way into the message: `n.toLocaleString()`, or
 * `numbers.format(n)` of an `Intl.NumberFormat`. (Functions that make a text of their own from a
 * number, such as a size with its unit, give text, not a count.)
 */
function isCount(checker: ts.TypeChecker, node: ts.Expression): boolean {
  if (isNumber(checker, node)) return true;
  if (!ts.isCallExpression(node) || !ts.isPropertyAccessExpression(node.expression)) return false;
  const method = node.expression.name.text;
  if (method === 'toLocaleString' || method === 'toFixed') return isNumber(checker, node.expression.expression);
  return method === 'format' && node.arguments.some((argument) => isNumber(checker, argument));
}

function usesOfMessages(): Use[] {
  const program = sourceProgram();
  const checker = program.getTypeChecker();
  const uses: Use[] = [];
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !file.fileName.startsWith(path.join(root, 'src'))) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.arguments.length > 0) {
        const callee = node.expression.getText(file);
        const [first, ...args] = node.arguments;
        let through: Use['through'] | undefined;
        if (callee === 'vscode.l10n.t' || callee === 'countMessage') through = callee === 'countMessage' ? 'countMessage' : 'l10n.t';
        else if (callee === 'format' && file.fileName.includes(`${path.sep}webview${path.sep}`)) through = 'format';
        if (through) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
          const where = `${path.relative(root, file.fileName)}:${line + 1}`;
          const counts = args.flatMap((arg, index) => (isCount(checker, arg) ? [index] : []));
          const message = literalText(first) ?? chatViewString(first);
          // A message that cannot be read here would hide its counts from the test.
          uses.push({ where, message: message ?? '', counts, through, unread: message === undefined });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return uses;
}

describe('counts in messages (plural forms)', function () {
  this.timeout(60_000);
  let uses: Use[];
  before(() => {
    uses = usesOfMessages();
  });

  it('finds the messages of the host and of the chat view', () => {
    assert.ok(uses.filter((use) => use.through === 'l10n.t').length > 100, 'vscode.l10n.t messages');
    assert.ok(
      uses.some((use) => use.through === 'countMessage'),
      'countMessage messages',
    );
    assert.ok(uses.filter((use) => use.through === 'format').length > 10, 'chat view messages');
  });

  it('reads every message that is given a count', () => {
    assert.deepEqual(
      uses.filter((use) => use.unread && use.counts.length > 0).map((use) => use.where),
      [],
      'give such a message as a literal or a chat view string',
    );
  });

  it('gives every count the forms of the words that agree with it', () => {
    const bare = uses.flatMap((use) =>
      use.counts.filter((index) => !new RegExp(`\\{${index}\\|`).test(use.message)).map((index) => `${use.where}: {${index}} of "${use.message}"`),
    );
    assert.deepEqual(bare, []);
  });

  it('fills counts with countMessage, as vscode.l10n.t would leave their forms as written', () => {
    const raw = uses.filter((use) => use.through === 'l10n.t' && /\{\d+\|/.test(use.message)).map((use) => use.where);
    assert.deepEqual(raw, []);
  });
});
