/**
 * The session's background subagents as the engine keeps them: those launched and not yet run
 * (`background_agents.ts` plays them) and what `subagent_stats` counts of them. A leaf of its
 * own, so that the engine does not import the subagent runner.
 *
 * @module
 */

/** The session's background subagents: those waiting to run, and what `subagent_stats` counts. */
export interface BackgroundTally {
  /** Launched, not yet run, in launch order (`background_agents.ts`'s runs). */
  pending: unknown[];
  /** Running or waiting, by type (spawned, not completed). */
  running: Record<string, number>;
  /** How many were started in the background. */
  started: number;
  /** How many Agent calls asked `run_in_background: true`. */
  requested: number;
}

/** A new, empty tally. */
export function backgroundTally(): BackgroundTally {
  return { pending: [], running: {}, started: 0, requested: 0 };
}
