import * as path from 'node:path';
import ts from 'typescript';

/**
 * Where the host shows text that VS Code may read as markdown links (`[x](command:…)` in a
 * notification runs a command), and whether every value in that text either is the extension's
 * own (a literal, an `l10n.t` message, a number) or went through `plainLabel`. Read with
 * TypeScript's checker: a value is followed to its declaration, a parameter to its callers, a
 * called function of the extension to what it returns. Notifications and dialogs have one way
 * out, `NOTIFY` (which neutralizes their whole text): `show…Message` named anywhere else is a finding.
 */
export interface Unchecked {
  /** file:line of the place the text is shown. */
  sink: string;
  /** file:line and source text of the value that reaches it unneutralized. */
  value: string;
}

const SHOW_MESSAGE = /^show(?:Information|Warning|Error)Message$/;
/** The one file that calls `show…Message`. */
export const NOTIFY = 'src/host/notify.ts';
/** Functions whose result the extension composes from its own strings and the arguments checked separately. */
const MESSAGE_BUILDERS = new Set(['t', 'countMessage']);

/**
 * @param planted files (path relative to `root` → text) read instead of the project's sources, with
 *   what they import: the tests plant a violation and expect it found.
 */
export function uncheckedShownText(root: string, planted?: Record<string, string>): Unchecked[] {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error('tsconfig.json could not be read');
  const plantedTexts = new Map(Object.entries(planted ?? {}).map(([file, text]) => [path.join(root, file), text]));
  const host = ts.createCompilerHost(config.options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => plantedTexts.get(path.normalize(file)) ?? readFile(file);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => plantedTexts.has(path.normalize(file)) || fileExists(file);
  const hostFiles = planted
    ? [...plantedTexts.keys()]
    : config.fileNames.filter((file) => file.includes(`${path.sep}src${path.sep}`) || file.includes('/src/'));
  const program = ts.createProgram(hostFiles, config.options, host);
  const checker = program.getTypeChecker();
  const sources = program.getSourceFiles().filter((file) => !file.isDeclarationFile && file.fileName.includes('/src/'));
  const calls: ts.CallExpression[] = [];
  const visitAll = (node: ts.Node, each: (node: ts.Node) => void) => {
    each(node);
    node.forEachChild((child) => visitAll(child, each));
  };
  for (const file of sources) visitAll(file, (node) => ts.isCallExpression(node) && calls.push(node));

  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    return `${path.relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  const found: Unchecked[] = [];
  const symbolOf = (node: ts.Node) => {
    const symbol = checker.getSymbolAtLocation(node);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  };
  const calleeName = (call: ts.CallExpression) =>
    ts.isPropertyAccessExpression(call.expression) ? call.expression.name.text : ts.isIdentifier(call.expression) ? call.expression.text : '';

  /** The extension's own text or a number: nothing of it can be a name from outside. */
  const ownType = (node: ts.Expression) => {
    const type = checker.getTypeAtLocation(node);
    const parts = type.isUnion() ? type.types : [type];
    return parts.every(
      (part) => part.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.StringLiteral | ts.TypeFlags.Undefined | ts.TypeFlags.Null),
    );
  };

  /** Every value of `node` that is not provably the extension's own or neutralized. */
  const check = (node: ts.Expression, seen: Set<ts.Node>, sink: ts.Node): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const fail = () => {
      found.push({ sink: where(sink), value: `${where(node)} ${node.getText()}` });
    };
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isAwaitExpression(node) || ts.isNonNullExpression(node))
      return check(node.expression, seen, sink);
    if (ts.isStringLiteralLike(node) || ts.isNumericLiteral(node) || ownType(node)) return;
    if (ts.isTemplateExpression(node)) return node.templateSpans.forEach((span) => check(span.expression, seen, sink));
    if (ts.isBinaryExpression(node)) {
      if (node.operatorToken.kind === ts.SyntaxKind.PlusToken) return [node.left, node.right].forEach((side) => check(side, seen, sink));
      if ([ts.SyntaxKind.BarBarToken, ts.SyntaxKind.QuestionQuestionToken].includes(node.operatorToken.kind))
        return [node.left, node.right].forEach((side) => check(side, seen, sink));
      return fail();
    }
    if (ts.isConditionalExpression(node)) return [node.whenTrue, node.whenFalse].forEach((branch) => check(branch, seen, sink));
    if (ts.isArrayLiteralExpression(node))
      return node.elements.forEach((element) => check(ts.isSpreadElement(element) ? element.expression : element, seen, sink));
    if (ts.isCallExpression(node)) return checkCall(node, seen, sink, fail);
    if (ts.isIdentifier(node)) return checkName(node, seen, sink, fail);
    const table = ownTable(node) ?? (ts.isPropertyAccessExpression(node) ? propertyOfReturned(node) : undefined);
    if (table) return table.forEach((value) => check(value, seen, sink));
    return fail();
  };

  /** `STRINGS[key]`: a constant table of the extension's own texts; its values (bodies of its functions) are what is shown. */
  const ownTable = (node: ts.Expression): ts.Expression[] | undefined => {
    if (!ts.isElementAccessExpression(node) || !ts.isIdentifier(node.expression)) return undefined;
    const declaration = symbolOf(node.expression)?.valueDeclaration;
    let initializer = declaration && ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
    while (initializer && (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer))) initializer = initializer.expression;
    if (!initializer || !ts.isObjectLiteralExpression(initializer) || !(declaration!.parent.flags & ts.NodeFlags.Const)) return undefined;
    const values = initializer.properties.map(propertyValue);
    return values.every((value) => value !== undefined) ? values : undefined;
  };

  const checkCall = (call: ts.CallExpression, seen: Set<ts.Node>, sink: ts.Node, fail: () => void) => {
    const name = calleeName(call);
    if (name === 'plainLabel') return;
    if (name === 'String' && call.arguments[0] && ownType(call.arguments[0])) return;
    const table = ownTable(call.expression);
    if (table) {
      for (const value of table)
        if (ts.isArrowFunction(value) && !ts.isBlock(value.body)) check(value.body, seen, sink);
        else fail();
      return;
    }
    if (MESSAGE_BUILDERS.has(name)) return call.arguments.forEach((argument) => check(argument, seen, sink));
    // `parts.join(' ')`, `parts.filter(…).join(…)`: the parts are what is shown.
    if (ts.isPropertyAccessExpression(call.expression) && ['join', 'filter', 'slice', 'concat', 'trim'].includes(name)) {
      check(call.expression.expression, seen, sink);
      if (name === 'join' || name === 'concat') call.arguments.forEach((argument) => check(argument, seen, sink));
      return;
    }
    // `names.map(plainLabel)`, `items.map((item) => …)`: what the callback returns is what is shown.
    if (ts.isPropertyAccessExpression(call.expression) && name === 'map' && call.arguments[0]) {
      const callback = call.arguments[0];
      if (ts.isIdentifier(callback) && callback.text === 'plainLabel') return;
      if (ts.isArrowFunction(callback) && !ts.isBlock(callback.body)) return check(callback.body, seen, sink);
      return fail();
    }
    // A function of the extension: what it returns is what is shown.
    const returned = returnsOf(call);
    if (returned) return returned.forEach((value) => check(value, seen, sink));
    fail();
  };

  /** What a call of one of the extension's functions returns; undefined for a library's. */
  const returnsOf = (call: ts.CallExpression): ts.Expression[] | undefined => {
    const declaration = checker.getResolvedSignature(call)?.declaration;
    if (!declaration || declaration.getSourceFile().isDeclarationFile || !ts.isFunctionLike(declaration) || !('body' in declaration) || !declaration.body)
      return undefined;
    const body = declaration.body;
    if (!ts.isBlock(body)) return [body];
    const returned: ts.Expression[] = [];
    visitAll(body, (node) => {
      if (ts.isReturnStatement(node) && node.expression && !insideNestedFunction(node, body)) returned.push(node.expression);
    });
    return returned;
  };

  /** `question.message` where `const question = this.question(…)` returns object literals: their `message`. */
  const propertyOfReturned = (access: ts.PropertyAccessExpression): ts.Expression[] | undefined => {
    let owner: ts.Expression | undefined = access.expression;
    if (ts.isIdentifier(owner)) {
      const declaration = symbolOf(owner)?.valueDeclaration;
      owner = declaration && ts.isVariableDeclaration(declaration) && declaration.parent.flags & ts.NodeFlags.Const ? declaration.initializer : undefined;
    }
    const returned = owner && ts.isCallExpression(owner) ? returnsOf(owner) : undefined;
    if (!returned?.every(ts.isObjectLiteralExpression)) return undefined;
    const values = returned.flatMap((object) => object.properties.filter((property) => property.name?.getText() === access.name.text).map(propertyValue));
    return values.every((value) => value !== undefined) ? values : undefined;
  };

  const checkName = (name: ts.Identifier, seen: Set<ts.Node>, sink: ts.Node, fail: () => void) => {
    const symbol = ts.isShorthandPropertyAssignment(name.parent) ? checker.getShorthandAssignmentValueSymbol(name.parent) : symbolOf(name);
    const declaration = symbol?.valueDeclaration;
    if (!declaration) return fail();
    if (ts.isVariableDeclaration(declaration)) {
      // A `let` also shows what it was assigned later, an array what was pushed into it.
      const assigned: ts.Expression[] = declaration.initializer ? [declaration.initializer] : [];
      visitAll(declaration.getSourceFile(), (node) => {
        if (
          ts.isBinaryExpression(node) &&
          node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
          ts.isIdentifier(node.left) &&
          symbolOf(node.left) === symbol
        )
          assigned.push(node.right);
        if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ['push', 'unshift'].includes(node.expression.name.text)) {
          if (ts.isIdentifier(node.expression.expression) && symbolOf(node.expression.expression) === symbol)
            assigned.push(...node.arguments.map((argument) => (ts.isSpreadElement(argument) ? argument.expression : argument)));
        }
      });
      if (assigned.length === 0) return fail();
      return assigned.forEach((value) => check(value, seen, sink));
    }
    if (ts.isParameter(declaration)) {
      const owner = declaration.parent;
      const index = owner.parameters.indexOf(declaration);
      const ownerSymbol = ownerSymbolOf(owner);
      const callers = ownerSymbol
        ? calls.filter(
            (call) =>
              symbolOf(call.expression) === ownerSymbol || (ts.isPropertyAccessExpression(call.expression) && symbolOf(call.expression.name) === ownerSymbol),
          )
        : [];
      if (callers.length === 0) return fail();
      for (const caller of callers) {
        const argument = caller.arguments[index];
        if (argument) check(argument, seen, sink);
      }
      return;
    }
    fail();
  };

  const ownerSymbolOf = (owner: ts.SignatureDeclaration) => {
    if ((ts.isFunctionDeclaration(owner) || ts.isMethodDeclaration(owner)) && owner.name) return symbolOf(owner.name);
    if ((ts.isArrowFunction(owner) || ts.isFunctionExpression(owner)) && ts.isVariableDeclaration(owner.parent)) return symbolOf(owner.parent.name);
    return undefined;
  };

  // One way to notify: `show…Message` named (called, or kept to call later) only in NOTIFY.
  for (const file of sources) {
    if (path.relative(root, file.fileName).split(path.sep).join('/') === NOTIFY) continue;
    visitAll(file, (node) => {
      if (ts.isIdentifier(node) && SHOW_MESSAGE.test(node.text))
        found.push({ sink: where(node), value: `${node.text} outside ${NOTIFY}: notifications go through its notify()` });
    });
  }

  // The sinks: a notification's message and detail, a progress notification's title, a QuickPick item's texts.
  for (const call of calls) {
    const name = calleeName(call);
    const shows = SHOW_MESSAGE.test(name) || (ts.isIdentifier(call.expression) && showsMessage(call.expression));
    if (shows) {
      const [message, ...rest] = call.arguments;
      if (message) check(message, new Set(), call);
      for (const option of rest) {
        if (ts.isObjectLiteralExpression(option)) checkProperties(option, ['detail'], call);
        // Buttons are the extension's own labels; options it cannot read could hold a detail it does not check.
        else if (!ts.isSpreadElement(option) && !(checker.getTypeAtLocation(option).flags & ts.TypeFlags.StringLike))
          found.push({ sink: where(call), value: `${where(option)} ${option.getText()}: options not written out where shown` });
      }
    }
    if (name === 'withProgress' && call.arguments[0] && ts.isObjectLiteralExpression(call.arguments[0])) checkProperties(call.arguments[0], ['title'], call);
  }
  for (const file of sources) {
    if (!/QuickPick/.test(file.text)) continue;
    visitAll(file, (node) => {
      if (ts.isObjectLiteralExpression(node) && node.properties.some((property) => property.name?.getText() === 'label'))
        checkProperties(node, ['label', 'description', 'detail'], node);
    });
  }
  return found;

  function checkProperties(object: ts.ObjectLiteralExpression, names: string[], sink: ts.Node) {
    for (const property of object.properties) {
      if (!names.includes(property.name?.getText() ?? '')) continue;
      if (ts.isPropertyAssignment(property)) check(property.initializer, new Set(), sink);
      else if (ts.isShorthandPropertyAssignment(property)) check(property.name, new Set(), sink);
    }
  }

  /** `const show = warn ? vscode.window.showWarningMessage : vscode.window.showInformationMessage`. */
  function showsMessage(callee: ts.Identifier): boolean {
    const declaration = symbolOf(callee)?.valueDeclaration;
    return (
      !!declaration &&
      ts.isVariableDeclaration(declaration) &&
      !!declaration.initializer &&
      /show(?:Information|Warning|Error)Message/.test(declaration.initializer.getText())
    );
  }
}

/** What an object literal's property holds, as an expression (a method or a spread is not read). */
function propertyValue(property: ts.ObjectLiteralElementLike): ts.Expression | undefined {
  if (ts.isPropertyAssignment(property)) return property.initializer;
  if (ts.isShorthandPropertyAssignment(property)) return property.name;
  return undefined;
}

function insideNestedFunction(node: ts.Node, body: ts.Node): boolean {
  for (let parent = node.parent; parent && parent !== body; parent = parent.parent) if (ts.isFunctionLike(parent)) return true;
  return false;
}
