/**
 * Internal: what makes a recording a failed one, and where it is kept. The one rule every
 * writer of tapes follows (`TapeWriter`, so `recordingSpawn`, `SnapshotRecorder` and the
 * binary's `record`; and `cassette()`): a run that failed (no exit recorded: it crashed, never
 * started or was cut short; a signal ended it; an exit code other than the expected one)
 * never replaces a tape already there. It is kept beside it as `<name>.failed.jsonl`, and the
 * error or warning says where. Like Polly's and VCR's, a recording is written to a temporary
 * file and renamed into place only when it succeeded.
 *
 * @module
 */

import type { TapeEnding } from "./tape.ts";

/** Where the failed recording of `path` is kept: `hello.jsonl` → `hello.failed.jsonl`. */
export function failedTapePath(path: string): string {
  return /\.jsonl$/i.test(path) ? `${path.slice(0, -6)}.failed.jsonl` : `${path}.failed`;
}

/** What a recording's outcome is judged by. */
export interface RecordingOutcome {
  /** How the process ended (none: it never exited). */
  ending: TapeEnding | undefined;
  /** The exit code of a run that succeeded (default 0). */
  expectedExit?: number;
  /** Whether the app's last prompt got no `result` (see {@linkcode PromptTracker}). */
  unanswered?: boolean;
  /** Whether the app closed the CLI's stdin while its last prompt had no result yet. */
  abandoned?: boolean;
}

/**
 * Why a run failed ("the CLI exited with code 1", "a signal (SIGTERM) ended the CLI", "the
 * CLI never exited", "the app stopped before its last prompt was answered"), or `undefined`
 * when it succeeded: the CLI answered every prompt and exited by itself with `expectedExit`.
 */
export function recordingFailure(outcome: RecordingOutcome): string | undefined {
  const { ending, expectedExit = 0 } = outcome;
  if (ending === undefined) {
    return "the CLI never exited (it crashed, did not start or was cut short)";
  }
  if (ending.signal !== null) return `a signal (${ending.signal}) ended the CLI`;
  if (ending.code !== expectedExit) {
    return `the CLI exited with code ${ending.code}${
      expectedExit === 0 ? "" : ` (expected ${expectedExit})`
    }`;
  }
  // (a run expected to fail may end before its result: a crash)
  if (expectedExit !== 0) return undefined;
  if (outcome.abandoned) {
    return "the app closed the CLI's stdin before its last prompt was answered (the test threw, or left its query loop early)";
  }
  if (outcome.unanswered) return "the CLI exited without answering the app's last prompt";
  return undefined;
}

/**
 * Follows a recording's frames: whether the app's last prompt (a `user` frame it sent) is
 * still without the CLI's `result`, and whether the app closed the CLI's stdin at such a
 * moment. A test that throws mid-query makes the SDK close the CLI's stdin; the CLI then
 * winds up and exits 0, as when all went well: only the order tells a failed recording.
 */
export class PromptTracker {
  #unanswered = false;
  #abandoned = false;

  /** Whether the last prompt has no result yet. */
  get unanswered(): boolean {
    return this.#unanswered;
  }

  /** Whether the app closed stdin while a prompt had no result. */
  get abandoned(): boolean {
    return this.#abandoned;
  }

  /** The app closed the CLI's stdin. */
  inputEnded(): void {
    if (this.#unanswered) this.#abandoned = true;
  }

  /** Takes the next entry of the recording. */
  see(entry: { dir: string; frame?: unknown }): void {
    const type = (entry.frame as { type?: unknown } | undefined)?.type;
    if (entry.dir === "sdk->cli" && type === "user") this.#unanswered = true;
    else if (entry.dir === "cli->sdk" && type === "result") this.#unanswered = false;
  }
}

/** Checks an `expectedExit` option: an integer from 0 to 255. */
export function checkExpectedExit(value: unknown, where: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 255) {
    throw new (typeof value === "number" ? RangeError : TypeError)(
      `${where}: expectedExit must be an integer from 0 to 255, got ${
        typeof value === "number" ? value : typeof value
      }`,
    );
  }
  return value;
}
