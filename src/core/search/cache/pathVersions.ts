/**
 * A counter per path, bumped by every change to it, so that an older unfinished indexing job never
 * overwrites the record of newer content (or resurrects a removed file).
 */
export class PathVersions {
  private readonly versions = new Map<string, number>();
  private next = 1;

  /** Marks a change to `path`; returns the version a job for the new content must still hold. */
  bump(path: string): number {
    const version = this.next++;
    this.versions.set(path, version);
    return version;
  }

  isCurrent(path: string, version: number): boolean {
    return this.versions.get(path) === version;
  }
}
