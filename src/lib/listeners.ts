/** Who listens for one kind of news: each can stop listening, and all are told at once. */
export interface Listeners<Args extends unknown[] = []> {
  /** Starts listening; returns the call that stops. */
  add: (listener: (...args: Args) => void) => () => void;
  /** Tells every listener, in the order they came. */
  emit: (...args: Args) => void;
}

export function createListeners<Args extends unknown[] = []>(): Listeners<Args> {
  const listeners = new Set<(...args: Args) => void>();
  return {
    add: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    emit: (...args) => {
      for (const listener of [...listeners]) listener(...args);
    },
  };
}
