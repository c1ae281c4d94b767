import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../../../support/repoRoot';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chunkText, embeddingText, type Chunk } from '../../../../../src/core/search/syntax/chunker';
import { GRAMMARS, grammarFile, grammarFor } from '../../../../../src/core/search/syntax/grammars';
import { MAX_PARSED_CHARS, SyntaxChunker } from '../../../../../src/core/search/syntax/syntaxChunker';

// The build's list of shipped grammars and where it takes them from (esbuild.js).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require(path.join(root, 'esbuild.js')) as {
  TREE_SITTER_GRAMMARS: Record<string, string>;
  writeTreeSitter: (folder: string, minify: boolean) => void;
};

/** Every chunk's text is exactly its lines of the file, within `maxChars` with its context; every line with a word is in one. */
function checkExact(text: string, chunks: Chunk[], maxChars: number): void {
  const lines = text.split(/\r?\n/);
  const covered = new Uint8Array(lines.length);
  for (const chunk of chunks) {
    const own = lines.slice(chunk.startLine, chunk.endLine + 1).join('\n');
    // A line longer than a chunk comes in pieces (as chunkText cuts it), each a part of that line.
    if (chunk.startLine === chunk.endLine && chunk.text !== own)
      assert.ok(
        own.includes(chunk.text) && embeddingText({ ...chunk, text: own }).length > maxChars,
        `chunk ${chunk.startLine} is not a piece of its long line`,
      );
    else assert.equal(chunk.text, own, `chunk ${chunk.startLine}-${chunk.endLine} is not its lines`);
    assert.ok(embeddingText(chunk).length <= maxChars, `chunk ${chunk.startLine}-${chunk.endLine} with its context is over ${maxChars}`);
    for (let i = chunk.startLine; i <= chunk.endLine; i++) covered[i] = 1;
  }
  lines.forEach((line, i) => {
    if (/[\p{L}\p{N}]/u.test(line)) assert.equal(covered[i], 1, `line ${i} (${JSON.stringify(line.slice(0, 40))}) is in no chunk`);
  });
}

/** The chunk whose text holds `needle`. */
function chunkWith(chunks: Chunk[], needle: string): Chunk {
  const found = chunks.find((chunk) => chunk.text.includes(needle));
  assert.ok(found, `no chunk holds ${JSON.stringify(needle)}`);
  return found;
}

/** Lines numbered from 0 as an editor shows them from 1: where `needle` is. */
function lineOf(text: string, needle: string): number {
  return text.split('\n').findIndex((line) => line.includes(needle));
}

const SESSION_TS = `import { EventEmitter } from 'node:events';

/** Keeps the user's session alive. */
export class SessionKeeper extends EventEmitter {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly intervalMs: number) {
    super();
  }

  /** Starts refreshing the token every interval. */
  start(refresh: () => Promise<void>): void {
    this.stop();
    this.timer = setInterval(() => {
      refresh().catch((error: unknown) => this.emit('error', error));
    }, this.intervalMs);
  }

  /** Stops refreshing; the token is left to expire. */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
`;

/** A function of many steps, longer than a chunk: it has to be split among its statements. */
function longFunction(steps: number): string {
  const body = Array.from(
    { length: steps },
    (_, i) =>
      `  if (request.step === ${i}) {\n    const reply${i} = await send(request, 'stage-${i}');\n    log.info(\`stage ${i}: \${reply${i}.status}\`);\n  }\n`,
  ).join('');
  return `// Uploads in stages.\nexport async function uploadInStages(request: UploadRequest, log: Logger): Promise<void> {\n${body}  log.info('done');\n}\n`;
}

/** A function whose body nests `depth` blocks, one a line: about 20 KB at 5,000, as generated code can be. */
function deeplyNested(head: string, open: (i: number) => string, close: string, depth = 5_000): string {
  const opens = Array.from({ length: depth }, (_, i) => open(i));
  return [head, ...opens, ...opens.map(() => close), '}', ''].join('\n');
}

describe('syntax chunks', function () {
  /** The parser as the build writes it to dist/tree-sitter. */
  let parserFolder: string;
  let chunker: SyntaxChunker;
  before(async () => {
    parserFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-sitter-'));
    build.writeTreeSitter(parserFolder, true);
    chunker = await SyntaxChunker.load(parserFolder);
  });
  after(() => {
    chunker.dispose();
    fs.rmSync(parserFolder, { recursive: true, force: true });
  });

  it('keeps a class with its methods whole when it fits, and each method whole when the class does not', async () => {
    const whole = await chunker.chunk(SESSION_TS, 'file:///w/src/sessionKeeper.ts', { maxChars: 1500 });
    assert.equal(whole.length, 1);
    assert.deepEqual({ startLine: whole[0].startLine, endLine: whole[0].endLine }, { startLine: 0, endLine: SESSION_TS.split('\n').lastIndexOf('}') });

    const split = await chunker.chunk(SESSION_TS, 'src/sessionKeeper.ts', { maxChars: 400 });
    checkExact(SESSION_TS, split, 400);
    const start = chunkWith(split, 'start(refresh');
    // The method with its doc comment, from the comment to its closing brace, and nothing of `stop`.
    assert.equal(start.startLine, lineOf(SESSION_TS, 'Starts refreshing'));
    assert.equal(start.endLine, lineOf(SESSION_TS, '}, this.intervalMs);') + 1);
    assert.doesNotMatch(start.text, /stop\(\): void/);
    assert.equal(start.context, 'export class SessionKeeper extends EventEmitter {');
    const stop = chunkWith(split, 'stop(): void {');
    assert.equal(stop.context, 'export class SessionKeeper extends EventEmitter {');
    // The class line is cited in its own piece, not repeated above it.
    assert.equal(chunkWith(split, 'export class SessionKeeper').context, undefined);
  });

  it('splits a long function among its inner blocks, the signature repeated above each piece but not in its lines', async () => {
    const text = longFunction(20);
    const chunks = await chunker.chunk(text, 'typescript', { maxChars: 600 });
    checkExact(text, chunks, 600);
    assert.ok(chunks.length >= 4, `${chunks.length} chunks`);
    const signature = 'export async function uploadInStages(request: UploadRequest, log: Logger): Promise<void> {';
    const [first, ...rest] = chunks;
    assert.equal(first.startLine, 0, 'the first piece starts with the comment before the function');
    assert.ok(first.text.includes(signature));
    assert.equal(first.context, undefined);
    for (const piece of rest) {
      assert.equal(piece.context, signature);
      assert.ok(!piece.text.includes('uploadInStages'));
      // Cut between statements: each piece is whole `if` blocks (plus the final log line).
      assert.match(piece.text, /^ {2}if \(request\.step === \d+\) \{/);
    }
    const stage7 = chunkWith(chunks, "'stage-7'");
    assert.ok(stage7.startLine <= lineOf(text, 'request.step === 7') && stage7.endLine >= lineOf(text, 'stage 7:') + 1);
  });

  it('repeats the class line and the method signature above the pieces of a long method', async () => {
    const method = longFunction(12).replace('// Uploads in stages.\nexport async function uploadInStages', '  async uploadInStages').replace(/\n/g, '\n  ');
    const text = `class Uploader {\n  private readonly queue: string[] = [];\n\n${method}\n}\n`;
    const chunks = await chunker.chunk(text, 'src/uploader.ts', { maxChars: 500 });
    checkExact(text, chunks, 500);
    const late = chunkWith(chunks, "'stage-9'");
    assert.equal(late.context, 'class Uploader {\n  async uploadInStages(request: UploadRequest, log: Logger): Promise<void> {');
  });

  it('cuts Python, Go, Rust and Kotlin along their declarations too', async () => {
    const python = `import os\n\n\nclass Store:\n    """Files on disk."""\n\n    def __init__(self, root):\n        self.root = root\n\n    def read(self, name):\n        with open(os.path.join(self.root, name)) as handle:\n            return handle.read()\n\n    def write(self, name, text):\n        with open(os.path.join(self.root, name), "w") as handle:\n            handle.write(text)\n`;
    const chunks = await chunker.chunk(python, 'store.py', { maxChars: 180 });
    checkExact(python, chunks, 180);
    const write = chunkWith(chunks, 'def write');
    assert.equal(write.startLine, lineOf(python, 'def write'));
    assert.equal(write.endLine, lineOf(python, 'handle.write(text)'));
    assert.equal(write.context, 'class Store:');

    const go = `package store\n\n// Read returns the file's text.\nfunc Read(root, name string) (string, error) {\n\tdata, err := os.ReadFile(filepath.Join(root, name))\n\tif err != nil {\n\t\treturn "", err\n\t}\n\treturn string(data), nil\n}\n\n// Write stores text in the file.\nfunc Write(root, name, text string) error {\n\treturn os.WriteFile(filepath.Join(root, name), []byte(text), 0o644)\n}\n`;
    const goChunks = await chunker.chunk(go, 'store.go', { maxChars: 220 });
    checkExact(go, goChunks, 220);
    assert.equal(chunkWith(goChunks, 'func Write').startLine, lineOf(go, '// Write stores'));

    const rust = `impl Store {\n    pub fn read(&self, name: &str) -> io::Result<String> {\n        fs::read_to_string(self.root.join(name))\n    }\n\n    pub fn write(&self, name: &str, text: &str) -> io::Result<()> {\n        fs::write(self.root.join(name), text)\n    }\n}\n`;
    const rustChunks = await chunker.chunk(rust, 'store.rs', { maxChars: 150 });
    checkExact(rust, rustChunks, 150);
    assert.equal(chunkWith(rustChunks, 'pub fn write').context, 'impl Store {');

    const kotlin = `class Store(private val root: String) {\n    fun read(name: String): String {\n        val file = File(root, name)\n        return file.readText()\n    }\n\n    fun write(name: String, text: String) {\n        File(root, name).writeText(text)\n    }\n}\n`;
    const kotlinChunks = await chunker.chunk(kotlin, 'Store.kt', { maxChars: 200 });
    checkExact(kotlin, kotlinChunks, 200);
    // `read` goes with the class line it follows; `write` (and the class's closing brace) under it.
    assert.deepEqual([chunkWith(kotlinChunks, 'fun read').startLine, chunkWith(kotlinChunks, 'fun read').endLine], [0, 4]);
    const kotlinWrite = chunkWith(kotlinChunks, 'fun write');
    assert.deepEqual([kotlinWrite.startLine, kotlinWrite.endLine, kotlinWrite.context], [6, 9, 'class Store(private val root: String) {']);
  });

  it('falls back to line chunks for a file with a syntax error, an unknown language, a huge file, and lone CR line breaks', async () => {
    const broken = SESSION_TS.replace('stop(): void {', 'stop(: void {{');
    assert.deepEqual(await chunker.chunk(broken, 'a.ts', { maxChars: 300 }), chunkText(broken, { maxChars: 300 }));
    for (const other of ['notes.txt', 'Makefile', 'plaintext', 'file:///w/.eslintrc']) {
      assert.equal(grammarFor(other), undefined);
      assert.deepEqual(await chunker.chunk(SESSION_TS, other, { maxChars: 300 }), chunkText(SESSION_TS, { maxChars: 300 }));
    }
    // Too big to parse without holding the event loop long: generated code, mostly.
    const generated = SESSION_TS.repeat(Math.ceil(MAX_PARSED_CHARS / SESSION_TS.length) + 1);
    assert.deepEqual(await chunker.chunk(generated, 'bundle.ts'), chunkText(generated));
    const oldMac = SESSION_TS.replace(/\n/g, '\r');
    assert.deepEqual(await chunker.chunk(oldMac, 'a.ts', { maxChars: 300 }), chunkText(oldMac, { maxChars: 300 }));
    assert.deepEqual(await chunker.chunk('', 'a.ts'), []);
  });

  it('keeps line numbers exact with CRLF line breaks and a line longer than a chunk', async () => {
    const long = `export const TABLE = [${Array.from({ length: 400 }, (_, i) => i).join(', ')}];`;
    const text = `${SESSION_TS}\n${long}\n\nexport function after(): number {\n  return TABLE.length;\n}\n`.replace(/\n/g, '\r\n');
    const chunks = await chunker.chunk(text, 'a.ts', { maxChars: 300 });
    const lines = text.split('\r\n');
    const longLine = lines.indexOf(long);
    const pieces = chunks.filter((chunk) => chunk.startLine === longLine);
    assert.equal(pieces.map((chunk) => chunk.text).join(''), long);
    assert.ok(pieces.every((chunk) => chunk.endLine === longLine && chunk.text.length <= 300));
    const after = chunkWith(chunks, 'export function after');
    assert.equal(after.text, lines.slice(after.startLine, after.endLine + 1).join('\n'));
    assert.equal(after.endLine, lines.indexOf('}', longLine));
  });

  it('keeps every line of this repository’s own sources exactly, within the size, at several sizes', async () => {
    const sources = [
      'src/core/search/indexRun.ts',
      'src/core/search/syntax/chunker.ts',
      'src/host/search/workspaceIndex.ts',
      'src/webview/main.ts',
      'esbuild.js',
    ];
    for (const file of sources) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const maxChars of [200, 800, 1500]) {
        const chunks = await chunker.chunk(text, file, { maxChars });
        assert.notDeepEqual(chunks, chunkText(text, { maxChars }), `${file} at ${maxChars} was cut by lines`);
        checkExact(text, chunks, maxChars);
      }
    }
  });

  it('cuts a file of 5,000 nested blocks along its syntax, in TypeScript, JavaScript and Go', async () => {
    const sources = {
      'deep.ts': deeplyNested('export function deep(): void {', (i) => `if (flag${i}) {`, '}'),
      'deep.js': deeplyNested('function deep() {', (i) => `while (step${i}()) {`, '}'),
      'deep.go': deeplyNested('package deep\n\nfunc deep() {', (i) => `if flag${i} {`, '}'),
    };
    for (const [file, text] of Object.entries(sources)) {
      const chunks = await chunker.chunk(text, file);
      assert.notDeepEqual(chunks, chunkText(text), `${file} was cut by lines`);
      checkExact(text, chunks, 1500);
    }
  });

  it('cuts by lines a nesting that would make a chunk of nearly every line', async () => {
    // Each level's statement shares its line with the block: each would be a chunk under 375 characters of signatures.
    const text = deeplyNested('function deep() {', (i) => `{ step${i}();`, '}');
    const chunks = await chunker.chunk(text, 'deep.js');
    assert.deepEqual(chunks, chunkText(text));
    assert.ok(chunks.length < text.length / 500, `${chunks.length} chunks`);
  });

  it('cuts by lines, and says so once, when a grammar does not load', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tree-sitter-'));
    try {
      for (const name of ['tree-sitter.js', 'tree-sitter.wasm']) fs.copyFileSync(path.join(parserFolder, name), path.join(folder, name));
      fs.writeFileSync(path.join(folder, grammarFile('python')), 'not a wasm module');
      const problems: string[] = [];
      const partial = await SyntaxChunker.load(folder, (problem) => problems.push(problem));
      try {
        const text = 'def f():\n    return 1\n';
        assert.deepEqual(await partial.chunk(text, 'a.py'), chunkText(text));
        assert.deepEqual(await partial.chunk(SESSION_TS, 'b.ts'), chunkText(SESSION_TS));
        await partial.chunk(text, 'c.py');
        assert.equal(problems.length, 2, problems.join('\n'));
        assert.match(problems[0], /python grammar did not load/);
        assert.match(problems[1], /typescript grammar did not load/);
      } finally {
        partial.dispose();
      }
      await assert.rejects(SyntaxChunker.load(path.join(folder, 'missing')));
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('ships a grammar for every language it names, as the build copies them', () => {
    assert.deepEqual(Object.keys(build.TREE_SITTER_GRAMMARS).sort(), [...GRAMMARS]);
    for (const grammar of GRAMMARS) assert.ok(fs.existsSync(path.join(parserFolder, grammarFile(grammar))), grammar);
    assert.equal(grammarFor('file:///w/src/App.TSX?x=1'), 'tsx');
    assert.equal(grammarFor('c'), 'cpp');
    assert.equal(grammarFor('/w/include/list.h'), 'cpp');
    assert.equal(grammarFor('typescriptreact'), 'tsx');
  });
});
