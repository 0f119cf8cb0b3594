/**
 * One app's own state (issue 40): the caches and batches its services keep between requests (the
 * group commits, the previewed files, the kept counts, the MFA keyring), made by `buildApp` and
 * handed to every service in its dependencies (`deps.state`), never held at module level. Two apps
 * in one process (the tests' instances) share none of it, and a test reads an app's own there.
 * Each piece is declared by the module that keeps it, as a slot; its value is made on first use.
 */
export class AppState {
  readonly #values = new Map<symbol, unknown>();

  /** The app's value of `slot`, made by `make` on its first use. */
  of<T>(slot: StateSlot<T>, make: () => T): T {
    if (!this.#values.has(slot.key)) this.#values.set(slot.key, make());
    return this.#values.get(slot.key) as T;
  }

  /** The app's value of `slot`, or undefined before its first use (what tests read). */
  peek<T>(slot: StateSlot<T>): T | undefined {
    return this.#values.get(slot.key) as T | undefined;
  }
}

/** A piece of per-app state, named by the module that keeps it. */
export interface StateSlot<T> {
  readonly key: symbol;
  /** Never set: it carries the value's type. */
  readonly type?: T;
}

export const stateSlot = <T>(name: string): StateSlot<T> => ({ key: Symbol(name) });
