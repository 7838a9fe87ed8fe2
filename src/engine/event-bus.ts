import { Observable } from 'rxjs';
import type { EngineEvent } from './ports.ts';

export type EngineEventListener = (event: EngineEvent) => void;

/**
 * The engine's one stream of events (orders, fills, denials with their codes, order batches with
 * their timings, heartbeat health, lifecycle, halts, commands, faults), heard by many
 * subscribers: the store's journal, the run's tally behind the summary and metrics, the status
 * view, and whatever the app adds. Delivery is synchronous, in subscription order, on the
 * engine's turn (the journal, subscribed first, writes inside the tick's transaction); a
 * listener that throws throws into the engine, as the single `onEvent` hook did, so a listener
 * that may fail catches its own errors. Emitting with no listener costs a length check.
 */
export class EventBus {
  /** Replaced (never mutated) on subscribe and unsubscribe, so an emit in progress is unaffected. */
  #listeners: readonly EngineEventListener[] = [];

  /** Adds a listener; returns its unsubscribe. */
  subscribe(listener: EngineEventListener): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }

  emit(event: EngineEvent): void {
    const listeners = this.#listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(event);
  }

  /** Number of listeners. */
  get size(): number {
    return this.#listeners.length;
  }

  /** The events as an Observable (each subscription is one listener). */
  events$(): Observable<EngineEvent> {
    return new Observable<EngineEvent>((subscriber) => this.subscribe((event) => subscriber.next(event)));
  }
}
