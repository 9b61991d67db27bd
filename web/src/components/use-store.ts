import { useEffect, useReducer } from 'preact/hooks';

/** A store that tells its listeners when it changed (the knowledge and collection stores). */
export interface Subscribable {
  subscribe(listener: () => void): () => void;
}

/**
 * Renders the component again whenever `store` changes. The store keeps its own state (the
 * chat and the files panel share it); the component reads it while rendering. Every component
 * that reads a store calls this itself: with @preact/signals, a component whose props did not
 * change is not rendered again just because its parent was.
 */
export function useStore(store: Subscribable): void {
  const [, changed] = useReducer((version: number) => version + 1, 0);
  useEffect(() => store.subscribe(() => changed(undefined)), [store]);
}
