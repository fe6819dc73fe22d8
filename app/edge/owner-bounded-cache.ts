/**
 * The one store of pages kept in memory (public pages, a learner's pages): a least-recently-used map of sized
 * entries, bounded in count and bytes overall and in count and bytes per owner: past its owner's share an entry pushes
 * out the same owner's oldest, so no owner's requests (`?junk=1`, `?junk=2`…, or a few very large pages) can push
 * another owner's entries out.
 */
export class OwnerBoundedCache<V extends { bytes: number }> {
  private readonly entries = new Map<string, { owner: string; value: V; touched: number }>();
  private readonly keysOfOwner = new Map<string, Set<string>>();
  private readonly bytesOfOwner = new Map<string, number>();
  private bytes = 0;
  private readonly limits: { entries: number; bytes: number; perOwner: number; perOwnerBytes: number };

  /** `perOwnerBytes`: an owner's share of the bytes (all of them unless said). */
  constructor(limits: { entries: number; bytes: number; perOwner: number; perOwnerBytes?: number }) {
    this.limits = { ...limits, perOwnerBytes: limits.perOwnerBytes ?? limits.bytes };
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Marks an entry as just used: the last to be pushed out. An entry is moved at most once a second (moving it on
   * every answer of a busy page cost about 1 % of the answer), which keeps the order right to within that second.
   */
  touch(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    const now = Date.now();
    if (now - entry.touched < 1000) return;
    entry.touched = now;
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.value.bytes;
    this.entries.delete(key);
    const keys = this.keysOfOwner.get(entry.owner)!;
    keys.delete(key);
    this.bytesOfOwner.set(entry.owner, this.bytesOfOwner.get(entry.owner)! - entry.value.bytes);
    if (keys.size === 0) {
      this.keysOfOwner.delete(entry.owner);
      this.bytesOfOwner.delete(entry.owner);
    }
  }

  /** The keys of an owner's entries. */
  keysOf(owner: string): string[] {
    return [...(this.keysOfOwner.get(owner) ?? [])];
  }

  /** Forgets every entry of an owner. */
  deleteOwner(owner: string): void {
    for (const key of this.keysOfOwner.get(owner) ?? []) this.delete(key);
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
    this.keysOfOwner.clear();
    this.bytesOfOwner.clear();
    this.bytes = 0;
  }

  set(owner: string, key: string, value: V): void {
    this.delete(key);
    const keys = this.keysOfOwner.get(owner) ?? new Set<string>();
    this.keysOfOwner.set(owner, keys);
    for (const oldest of keys) {
      const bytes = this.bytesOfOwner.get(owner) ?? 0;
      if (keys.size < this.limits.perOwner && bytes + value.bytes <= this.limits.perOwnerBytes) break;
      this.delete(oldest);
    }
    this.entries.set(key, { owner, value, touched: 0 });
    keys.add(key);
    this.bytesOfOwner.set(owner, (this.bytesOfOwner.get(owner) ?? 0) + value.bytes);
    this.bytes += value.bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      this.delete(oldest);
    }
  }
}
