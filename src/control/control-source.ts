import type { CommandResult, EngineCommand } from '../engine/commands.ts';
import type { ControlMessage, ControlState } from './control-state.ts';

/**
 * What the control server serves: a run's state, its messages, and (a running engine only) the
 * actions. A running engine (live-source.ts) and a store file (store-source.ts) are the two.
 */
export interface ControlSource {
  state(): ControlState;
  /** Each message for the message WebSocket; returns the unsubscribe. */
  subscribe(listener: (message: ControlMessage) => void): () => void;
  /** The run's commands; absent: read-only (a store file). */
  readonly actions?: ControlActions;
  close(): void;
}

/** The control actions of a running engine: each journaled (the engine's `command` event) and answered. */
export interface ControlActions {
  command(command: EngineCommand): CommandResult;
  /**
   * A flatten: its start (the command's answer) and, when it started, its verified end (waited
   * for up to `waitMs`; absent when it did not end in time).
   */
  flatten(bandCents: number | undefined, waitMs: number): Promise<{ readonly started: CommandResult; readonly verified?: CommandResult }>;
}
