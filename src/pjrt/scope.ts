// Tracks everything created during a test so that nothing leaks when it fails: dispose() destroys in reverse order.

export interface Destroyable {
  destroy(): unknown;
  readonly destroyed: boolean;
}

/** The smallest length at which a scope drops its destroyed objects. */
const COMPACT_MIN = 1024;

export class Scope {
  private items: Destroyable[] = [];
  /** The list drops what is destroyed whenever it reaches this length: a long-lived scope (the worker's client, a soak) stays small. */
  private compactAt = COMPACT_MIN;

  track<T extends Destroyable>(x: T): T {
    this.items.push(x);
    if (this.items.length >= this.compactAt) {
      this.items = this.items.filter((i) => !i.destroyed);
      this.compactAt = Math.max(COMPACT_MIN, this.items.length * 2);
    }
    return x;
  }
  get size(): number {
    return this.items.filter((x) => !x.destroyed).length;
  }
  /** Destroys what is still alive, newest first; every failure is collected and thrown together at the end. */
  async dispose(): Promise<void> {
    const items = this.items;
    this.items = [];
    const errors: unknown[] = [];
    for (let i = items.length - 1; i >= 0; i--) {
      const x = items[i]!;
      if (x.destroyed) continue;
      try {
        await x.destroy();
      } catch (e) {
        errors.push(e);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} objects failed to destroy`);
  }
}
