/**
 * Internal: where a cassette's recording goes once the CLI ended. A run that succeeded
 * replaces the tape, unless the test failed after it (its runner says so, or `run()` saw the
 * body throw); a run that failed, or a test that failed, keeps the recording beside the tape
 * as `<name>.failed.jsonl`, the tape there left as it was, and a warning names both.
 *
 * @module
 */

import { errorCode, fileTime, removeFile, writeWhole } from "../host/_fs.ts";
import { failedTapePath } from "./_failed_recording.ts";
import { serializeTape } from "./parse_tape.ts";
import type { Tape } from "./tape.ts";
import { onTestOutcome, type TestOutcome } from "./_test_context.ts";

/** How a recording's CLI failed, for the message. */
export interface FailedRun {
  /** Why (`recordingFailure`). */
  failure: string;
  /** The spawn's error, when the CLI never started. */
  failedToStart: unknown;
  /** The command that was run. */
  command: string;
  /** The exit code a run that succeeded has. */
  expectedExit: number;
}

/** The end of one cassette's recording. */
export class TapeKeeper {
  #name: string;
  #path: string;
  #recording: string;
  #warn: (message: string) => void;
  #outcome?: TestOutcome;
  #held?: Tape;
  #told: boolean;

  /** The keeper of `path`, recorded into `recording`; asks `test`'s runner for its outcome. */
  constructor(
    test: unknown,
    options: { name: string; path: string; recording: string; warn: (message: string) => void },
  ) {
    this.#name = options.name;
    this.#path = options.path;
    this.#recording = options.recording;
    this.#warn = options.warn;
    this.#told = onTestOutcome(test, (ended) => this.#testEnded(ended));
  }

  /** How the test's body ended (`run()`), when known before the runner's. */
  ended(outcome: TestOutcome): void {
    this.#outcome ??= outcome;
  }

  /**
   * A run that succeeded: the tape, unless the test failed (then thrown, naming both files);
   * when the runner says later how the test ended, the recording waits for it in its
   * temporary file (nothing is lost if the runner never says).
   */
  async succeeded(kept: Tape): Promise<void> {
    if (this.#outcome?.failed) throw new Error(await this.#failedTest(kept, this.#outcome.error));
    if (this.#outcome === undefined && this.#told) {
      this.#held = kept;
      await write(this.#recording, kept);
      return;
    }
    await this.#replace(kept);
  }

  /** A run that failed: kept beside the tape; throws, naming both files. */
  async failed(tape: Tape, kept: Tape, run: FailedRun): Promise<never> {
    const path = this.#path;
    const existed = (await fileTime(path)) !== undefined;
    // (a CLI that never started recorded nothing: no file for it)
    const nothing = tape.ending === undefined && tape.entries.length === 0;
    const failedPath = failedTapePath(path);
    if (!nothing) await write(failedPath, kept);
    await removeFile(this.#recording).catch(() => {});
    const notStarted = tape.ending === undefined && run.failedToStart !== undefined;
    const why = notStarted
      ? `the CLI ${JSON.stringify(run.command)} did not run (${errorText(run.failedToStart)})`
      : run.failure;
    const hint = notStarted
      ? ". Put the real claude on PATH, or give the query pathToClaudeCodeExecutable"
      : run.expectedExit === 0 && tape.ending?.code !== null && tape.ending?.signal === null
      ? ". A run meant to fail: give cassette() the option expectedExit"
      : "";
    const message = `Cannot record cassette '${this.#name}': ${why}${stderrTail(tape)}; ${
      existed ? `${path} is left as it was` : `no tape was written to ${path}`
    }${nothing ? "" : `, and this failed recording is kept in ${failedPath}`}${hint}`;
    // also a warning: a runner may report only the test's own error (node:test drops an
    // `after` hook's error once the test failed)
    this.#warn(message);
    throw new Error(message);
  }

  async #testEnded(outcome: TestOutcome): Promise<void> {
    this.#outcome ??= outcome;
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    // the test has failed already: the warning is all that is left to say
    if (outcome.failed) await this.#failedTest(held, outcome.error);
    else await this.#replace(held);
  }

  async #replace(kept: Tape): Promise<void> {
    await write(this.#path, kept);
    await removeFile(this.#recording).catch(() => {});
  }

  async #failedTest(kept: Tape, error: unknown): Promise<string> {
    const path = this.#path;
    const existed = (await fileTime(path)) !== undefined;
    const failedPath = failedTapePath(path);
    await write(failedPath, kept);
    await removeFile(this.#recording).catch(() => {});
    const why = error === undefined ? "" : ` (${errorText(error)})`;
    const message =
      `Cannot record cassette '${this.#name}': the test failed after the CLI exited cleanly${why}; ${
        existed ? `${path} is left as it was` : `no tape was written to ${path}`
      }, and this recording is kept in ${failedPath}`;
    this.#warn(message);
    return message;
  }
}

/** Writes a tape whole (a temporary file renamed into place). */
export async function write(path: string, tape: Tape): Promise<void> {
  try {
    await writeWhole(path, serializeTape(tape));
  } catch (error) {
    throw new Error(`Cannot write cassette ${path}: ${errorCode(error) ?? String(error)}`);
  }
}

/** The last of the CLI's stderr, for the message of a failed recording. */
function stderrTail(tape: Tape): string {
  const text = tape.entries.map((e) => e.dir === "stderr" ? e.text : "").join("").trim();
  if (text === "") return "";
  const tail = text.length > 300 ? `…${text.slice(-300)}` : text;
  return ` (its stderr: ${JSON.stringify(tail)})`;
}

/** An error in one line of at most 300 characters, for a message. */
function errorText(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ")
    .trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
