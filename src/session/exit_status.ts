/**
 * How a session's process ended: an exit code or the signal that ended it.
 *
 * @module
 */

/** How a session's process ended. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGTERM`, ...), or `null`. */
  signal: string | null;
}
