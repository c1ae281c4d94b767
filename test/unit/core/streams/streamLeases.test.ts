import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LeaseFiles } from '../../../../src/core/streams/leaseFiles';
import { StreamScheduler } from '../../../../src/core/streams/streamScheduler';

// This file is also the other window: run by node with LEASE_DIR set, it takes one stream
// through its own scheduler, says so on stdout, and holds it until told on stdin, or killed.
if (process.env.LEASE_DIR) {
  const scheduler = new StreamScheduler({ streams: 1, leases: new LeaseFiles(process.env.LEASE_DIR), pollMs: 10 });
  void scheduler.acquire({ priority: 'background' }).then((lease) => {
    process.stdout.write('held\n');
    process.stdin.once('data', () => {
      lease.release();
      process.stdout.write('released\n');
      process.exit(0);
    });
  });
} else {
  describe('Stream leases shared by the windows of one machine', () => {
    let dir: string;
    const children: ChildProcess[] = [];

    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-leases-'));
    });
    afterEach(() => {
      for (const child of children.splice(0)) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** Another process holding the account's one stream. */
    async function otherWindow(): Promise<ChildProcess> {
      const child = spawn(process.execPath, [__filename], { env: { ...process.env, LEASE_DIR: dir }, stdio: ['pipe', 'pipe', 'inherit'] });
      children.push(child);
      await said(child, 'held');
      return child;
    }

    it("waits for another window's stream, and gets it the moment that window releases it", async () => {
      const other = await otherWindow();
      const scheduler = new StreamScheduler({ streams: 1, leases: new LeaseFiles(dir), pollMs: 10 });
      let granted = false;
      const question = scheduler.acquire({ priority: 'now' }).then((lease) => ((granted = true), lease));
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(granted, false, 'one stream for the account: the other window has it');
      other.stdin!.write('release\n');
      await said(other, 'released');
      (await question).release();
      scheduler.dispose();
    });

    it('takes over the lease of a window killed while it held the stream', async () => {
      const other = await otherWindow();
      const leases = new LeaseFiles(dir);
      assert.equal(leases.tryTake(1), undefined, 'held by a live process');
      assert.equal(leases.heldByOthers(), 1);
      const scheduler = new StreamScheduler({ streams: 1, leases, pollMs: 10 });
      const question = scheduler.acquire({ priority: 'now' });
      other.kill('SIGKILL');
      const lease = await question;
      assert.equal(leases.heldByOthers(), 0, 'the dead window holds nothing');
      lease.release();
      assert.deepEqual(
        fs.readdirSync(dir).filter((name) => name.endsWith('.lease')),
        [],
        'released: no lease file left',
      );
      scheduler.dispose();
    });

    it("holds back background work while another window's question waits", () => {
      const mine = new LeaseFiles(dir, 1_000_001, () => true);
      const theirs = new LeaseFiles(dir, 1_000_002, () => true);
      theirs.setWanting(true);
      assert.equal(mine.othersWanting(), true);
      assert.equal(theirs.othersWanting(), false, 'its own question is not another window');
      theirs.setWanting(false);
      assert.equal(mine.othersWanting(), false);
    });
  });
}

/** Resolves when `child` writes `line` on stdout. */
function said(child: ChildProcess, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (data: Buffer) => {
      out += data.toString();
      if (out.split('\n').includes(line)) {
        child.stdout!.off('data', onData);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the other window exited (${code}) before saying ${line}`)));
  });
}
