import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { IgnoreRules, readSelectedFiles, selectFiles, type SkipReason } from '../../../../../src/core';
import { READ_AHEAD } from '../../../../../src/core/search/files/fileSelection';
import { DiskFolder } from '../../../support/diskFolder';
import { useFileTrees } from '../../../support/fileTrees';
import { randomInt, seededRandom } from '../../../../emulator/random';

const LIMITS = { maxFileBytes: 1024, maxFiles: 1000 };

async function selectedPaths(folder: DiskFolder, limits = LIMITS): Promise<string[]> {
  return (await selectFiles([folder], limits)).files.map((file) => file.path);
}

describe('file selection for semantic search', () => {
  const tree = useFileTrees();
  const make = (files: Record<string, string | Uint8Array>) => new DiskFolder(tree(files));

  it('keeps source files and leaves out dependencies, build output, lock files, minified code and binaries by name', async () => {
    const folder = make({
      'src/app.ts': 'export const app = 1;\n',
      'README.md': '# Project\n',
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      'packages/a/node_modules/b/index.js': 'module.exports = 2;\n',
      '.git/config': '[core]\n',
      'dist/app.js': 'var app = 1;\n',
      'coverage/lcov.info': 'TN:\n',
      'package-lock.json': '{}\n',
      'yarn.lock': '# yarn\n',
      'public/app.min.js': 'var a=1;\n',
      'public/app.js.map': '{}\n',
      'assets/logo.png': 'not really a png\n',
      'lib/util.py': 'def util(): pass\n',
    });
    assert.deepEqual(await selectedPaths(folder), ['README.md', 'lib/util.py', 'src/app.ts']);
  });

  it('never selects a secret file, whatever the .gitignore files try to re-include', async () => {
    const secrets = [
      '.env',
      '.env.local',
      'config/.env.production',
      'deploy/server.pem',
      'deploy/server.key',
      'id_rsa',
      'home/.ssh/id_ed25519.pub',
      '.npmrc',
      '.netrc',
      'aws/credentials',
      'gcp-credentials.json',
      'k8s/service-account-prod.json',
      'config/secrets.yaml',
      'infra/prod.tfvars',
      'keys/store.jks',
      '.aws/config',
    ];
    const folder = make({
      ...Object.fromEntries(secrets.map((file) => [file, 'TOKEN=do-not-send\n'])),
      '.gitignore': '!*\n!.env\n!**/*.pem\n',
      'config/.gitignore': '!.env.production\n',
      'src/index.ts': 'export {};\n',
    });
    const selection = await selectFiles([folder], LIMITS);
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['src/index.ts'],
    );
    assert.equal(selection.skipped.get('secret'), secrets.length);
    for (const secret of secrets) assert.ok(IgnoreRules.isSecret(secret), `${secret} is recognised as a secret`);
  });

  it('never selects a secret among randomly named files in random places', async () => {
    const secretNames = [
      '.env',
      '.env.test',
      'id_rsa',
      'id_ecdsa.pub',
      'cert.pem',
      'tls.key',
      'credentials',
      'my-credentials.json',
      '.git-credentials',
      'vault.kdbx',
      'app.secret',
    ];
    const random = seededRandom(20261121);
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      const directory = Array.from({ length: randomInt(random, 0, 3) }, () => `d${randomInt(random, 0, 5)}`).join('/');
      const name = i % 3 === 0 ? secretNames[randomInt(random, 0, secretNames.length - 1)] : `file${i}.ts`;
      files[directory ? `${directory}/${name}` : name] = `content ${i}\n`;
    }
    const folder = make(files);
    const selected = await selectedPaths(folder);
    for (const file of selected) assert.ok(!IgnoreRules.isSecret(file) && !secretNames.includes(path.posix.basename(file)), `${file} is not a secret`);
    const expected = Object.keys(files).filter((file) => !secretNames.includes(path.posix.basename(file)));
    assert.deepEqual(selected, expected.sort());
  });

  it('honours .gitignore files at every level with git precedence', async () => {
    const folder = make({
      '.gitignore': '*.log\ngenerated/\n/top-only.ts\nlogs/\n!logs/keep.txt\n',
      'app.log': 'x\n',
      'top-only.ts': 'x\n',
      'nested/top-only.ts': 'kept: the root pattern is anchored\n',
      'generated/api.ts': 'x\n',
      'src/generated/types.ts': 'x\n',
      'logs/keep.txt': 'a parent directory is excluded: git cannot re-include this\n',
      'src/.gitignore': 'local.ts\n!keep.log\n/anchored.ts\n',
      'src/local.ts': 'x\n',
      'src/deep/local.ts': 'x\n',
      'src/keep.log': 'kept: re-included by the deeper file\n',
      'src/other.log': 'x\n',
      'src/anchored.ts': 'x\n',
      'src/deep/anchored.ts': 'kept: anchored to src/\n',
      'src/main.ts': 'x\n',
      'local.ts': 'kept: src/.gitignore does not reach up\n',
    });
    const selection = await selectFiles([folder], LIMITS);
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['local.ts', 'nested/top-only.ts', 'src/deep/anchored.ts', 'src/keep.log', 'src/main.ts'],
    );
    assert.equal(selection.skipped.get('gitignore'), 9);
  });

  it('honours .git/info/exclude', async () => {
    const folder = make({ '.git/info/exclude': 'scratch/\n', 'scratch/notes.md': 'x\n', 'src/a.ts': 'x\n' });
    assert.deepEqual(await selectedPaths(folder), ['src/a.ts']);
  });

  it('keeps at most maxFiles files, in path order among equals, and counts the rest', async () => {
    const folder = make(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/f${String(i).padStart(2, '0')}.ts`, `export const f${i} = ${i};\n`])));
    const selection = await selectFiles([folder], { ...LIMITS, maxFiles: 5 });
    assert.deepEqual(
      selection.files.map((file) => file.path),
      ['src/f00.ts', 'src/f01.ts', 'src/f02.ts', 'src/f03.ts', 'src/f04.ts'],
    );
    assert.equal(selection.skipped.get('overLimit'), 7);
  });

  it('applies the file limit across several folders (multi-root)', async () => {
    const first = make({ 'a.ts': 'a\n', 'b.ts': 'b\n' });
    const second = make({ 'c.ts': 'c\n', '.env': 'SECRET=1\n', 'node_modules/x.js': 'x\n' });
    const selection = await selectFiles([first, second], { ...LIMITS, maxFiles: 3 });
    assert.deepEqual(
      selection.files.map((file) => [file.folder, file.path]),
      [
        [first, 'a.ts'],
        [first, 'b.ts'],
        [second, 'c.ts'],
      ],
    );
    assert.equal(selection.skipped.get('secret'), 1);
  });

  it('reads text files and skips binary content, invalid UTF-8, files over the size cap and files that vanished', async () => {
    const folder = make({
      'text.ts': '\uFEFFexport const greeting = "привет";\n',
      'binary.txt': new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x41]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]), // "café" in Latin-1
      'huge-line.js': 'x'.repeat(2000),
      'vanishing.ts': 'soon gone\n',
    });
    const selection = await selectFiles([folder], LIMITS);
    fs.rmSync(path.join(folder.root, 'vanishing.ts'));
    const skipped = new Map<string, SkipReason>();
    const read = [];
    for await (const file of readSelectedFiles(selection.files, LIMITS.maxFileBytes, (file, reason) => skipped.set(file.path, reason))) read.push(file);
    assert.deepEqual(read, [{ path: 'disk:text.ts', text: 'export const greeting = "привет";\n' }]);
    assert.deepEqual(Object.fromEntries(skipped), { 'binary.txt': 'binary', 'huge-line.js': 'tooLarge', 'latin1.txt': 'binary', 'vanishing.ts': 'unreadable' });
  });

  it('reads files ahead of the indexer, several at once, and hands them over in order; a failed read fails at its turn', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}.ts`);
    const folder = make(Object.fromEntries(names.map((name) => [name, `content of ${name}\n`])));
    const selection = await selectFiles([folder], LIMITS);
    // Reads wait until released, and are released last first: out of order.
    const waiting: { name: string; release: () => void }[] = [];
    let peak = 0;
    const read = folder.readFile.bind(folder);
    folder.readFile = async (name) => {
      await new Promise<void>((release) => waiting.push({ name, release }));
      if (name === 'f15.ts') throw new Error('the disk failed');
      return read(name);
    };
    const releaseAll = setInterval(() => {
      peak = Math.max(peak, waiting.length);
      waiting
        .splice(0)
        .reverse()
        .forEach(({ release }) => release());
    }, 5);
    const texts: string[] = [];
    try {
      await assert.rejects(async () => {
        for await (const file of readSelectedFiles(selection.files, LIMITS.maxFileBytes, () => undefined)) texts.push(file.text);
      }, /the disk failed/);
    } finally {
      clearInterval(releaseAll);
    }
    assert.equal(peak, READ_AHEAD, 'files were read several at a time');
    assert.deepEqual(
      texts,
      names.slice(0, 15).map((name) => `content of ${name}\n`),
    );
  });

  it('handles names with spaces, unicode and glob characters', async () => {
    const names = ['docs/read me.md', 'src/файл.ts', 'src/[id].tsx', 'src/what?.ts', 'src/a{b,c}.ts', 'src/#hash.ts'];
    const folder = make(Object.fromEntries(names.map((name) => [name, 'content\n'])));
    assert.deepEqual(await selectedPaths(folder), [...names].sort());
  });
});
