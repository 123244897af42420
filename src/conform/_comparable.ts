/**
 * A recorded run made comparable: its frames normalized (ids, times, paths, the gateway), its
 * exit, stderr lines and, in print text mode, its stdout. Internal.
 *
 * @internal
 * @module
 */

import type { Tape } from "../cassette/tape.ts";
import type { ComparableRun } from "./_compare.ts";
import type { RecordedRun } from "./_conform_runs.ts";
import { Normalizer } from "./_normalize.ts";

/** A run normalized for comparing: its frames, exit, stderr lines and (text) stdout. */
export function comparable(
  run: RecordedRun & { stdout?: string },
  mode: string,
): { run: ComparableRun; tape: Tape } {
  const normalizer = new Normalizer(run.places);
  const entries = run.tape.entries.map((entry) => {
    if ("frame" in entry) {
      return { ...entry, frame: normalizer.normalize(entry.frame) as typeof entry.frame };
    }
    if ("raw" in entry) return { ...entry, raw: normalizer.text(entry.raw) };
    return { ...entry, text: normalizer.text(entry.text) };
  });
  const stderr = entries
    .flatMap((e) => ("text" in e && e.dir === "stderr" ? e.text.split("\n") : []))
    .map((l) => l.trimEnd())
    .filter((l) => l !== "");
  const tape: Tape = { ...run.tape, entries };
  return {
    tape,
    run: {
      entries: mode === "print:text" ? [] : entries,
      exitCode: run.tape.ending?.code ?? null,
      stderr,
      ...(mode === "print:text" ? { stdout: normalizer.text(run.stdout ?? "") } : {}),
    },
  };
}
