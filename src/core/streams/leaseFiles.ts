import * as fs from 'node:fs';
import * as path from 'node:path';

/** One stream held by this process, as a file other processes see. */
export interface FileLease {
  release(): void;
}

/** Whether a process is running (a lease of a process that is not died with it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const LEASE = /^stream-(\d+)\.lease$/;
const WANT = /^want-now\.(\d+)$/;

/**
 * The account's streams shared by the processes of one machine (the windows of VS Code): a lease
 * per stream is a file `stream-<slot>.lease`, created exclusively (O_EXCL), holding its owner's
 * pid. A lease whose owner is gone (a crashed or closed window) is taken over, so leases die with
 * their window. A `want-now.<pid>` file says a process has a question waiting: the others' background
 * work yields to it.
 */
export class LeaseFiles {
  private readonly self: string;

  constructor(
    private readonly dir: string,
    private readonly pid = process.pid,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {
    this.self = `${pid} ${Math.random().toString(36).slice(2)}`;
    fs.mkdirSync(dir, { recursive: true });
  }

  /** A free slot below `limit`, taken; undefined when every one is held by a live process. */
  tryTake(limit: number): FileLease | undefined {
    for (let slot = 0; slot < limit; slot++) {
      const file = path.join(this.dir, `stream-${slot}.lease`);
      if (this.create(file) || (this.reclaim(file) && this.create(file))) {
        let held = true;
        return {
          release: () => {
            if (!held) return;
            held = false;
            this.removeOwn(file);
          },
        };
      }
    }
    return undefined;
  }

  /** Leases held by other live processes. */
  heldByOthers(): number {
    return this.entries(LEASE).filter((name) => {
      const owner = this.ownerOf(path.join(this.dir, name));
      return owner !== undefined && owner !== this.pid && this.alive(owner);
    }).length;
  }

  /** Says (or stops saying) that this process has a request of the user's waiting. */
  setWanting(wanting: boolean): void {
    const file = path.join(this.dir, `want-now.${this.pid}`);
    try {
      if (wanting) fs.writeFileSync(file, '');
      else fs.rmSync(file, { force: true });
    } catch {
      // the folder went away: the next lease recreates nothing, and nobody waits on a marker
    }
  }

  /** Whether another live process has a request of its user's waiting. */
  othersWanting(): boolean {
    return this.entries(WANT).some((name) => {
      const owner = Number(WANT.exec(name)?.[1]);
      if (owner === this.pid) return false;
      if (this.alive(owner)) return true;
      fs.rmSync(path.join(this.dir, name), { force: true });
      return false;
    });
  }

  private create(file: string): boolean {
    try {
      fs.writeFileSync(file, this.self, { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') fs.mkdirSync(this.dir, { recursive: true });
      return false;
    }
  }

  /**
   * Removes the lease of a process that is gone. Moved aside first and checked there, so a lease
   * another process has just retaken in its place is put back, not deleted.
   */
  private reclaim(file: string): boolean {
    const content = this.read(file);
    const owner = content === undefined ? undefined : Number(content.split(' ')[0]);
    if (owner === undefined || !Number.isInteger(owner) || this.alive(owner)) return false;
    const grave = `${file}.${this.pid}.gone`;
    try {
      fs.renameSync(file, grave);
      if (this.read(grave) !== content) fs.linkSync(grave, file);
    } catch {
      // another process moved it first, or put a fresh one back: nothing to undo
    }
    fs.rmSync(grave, { force: true });
    return true;
  }

  private removeOwn(file: string): void {
    if (this.read(file) === this.self) fs.rmSync(file, { force: true });
  }

  private ownerOf(file: string): number | undefined {
    const owner = Number(this.read(file)?.split(' ')[0]);
    return Number.isInteger(owner) ? owner : undefined;
  }

  private read(file: string): string | undefined {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  private entries(pattern: RegExp): string[] {
    try {
      return fs.readdirSync(this.dir).filter((name) => pattern.test(name));
    } catch {
      return [];
    }
  }
}
