// Tracks everything created during a test so that nothing leaks when it fails: dispose() destroys in reverse order.

export interface Destroyable {
  destroy(): unknown;
  readonly destroyed: boolean;
}

export class Scope {
  private items: Destroyable[] = [];

  track<T extends Destroyable>(x: T): T {
    this.items.push(x);
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
