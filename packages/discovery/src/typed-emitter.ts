/** A listener of one event. */
export type Listener<T> = (payload: T) => void;

/**
 * A minimal typed event emitter. A listener that throws does not stop the others and
 * never reaches the code that emitted the event.
 */
export class TypedEmitter<Events extends { [K in keyof Events]: unknown }> {
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();

  /** Add a listener; the returned function removes it. */
  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener<never>);
    return () => {
      set.delete(listener as Listener<never>);
    };
  }

  /** Call every listener of `event` with `payload`. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch {
        // A faulty listener must not break discovery or the other listeners.
      }
    }
  }

  /** Remove every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
