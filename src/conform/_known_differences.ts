/**
 * Known differences: the cases (and modes) where the mock is known not to match the real CLI
 * yet, as data, each with the reason. Unlike an exception (which explains a difference that is
 * legitimate, such as real-time jitter), a known difference is a defect of the mock that is
 * not fixed: `conform --known FILE` still runs and reports it, but does not fail on it, so a
 * check can guard every case that matches today while the rest are worked on. It fails on any
 * other difference, and it names the entries whose cases now match so they can be removed.
 *
 * @module
 */

import { readJsonFile } from "./_json_file.ts";
import { glob } from "./conform_exceptions.ts";
import type { ConformReport } from "./run_conformance.ts";

/** One known difference: a case (glob), optionally a mode and an SDK version (globs). */
export interface KnownDifference {
  /** The case's name (a glob: `*` matches any run of characters). */
  case: string;
  /** The mode (`duplex`, `print:text`, `print:json`, `print:stream-json`; glob; default all). */
  mode?: string;
  /** The SDK version (glob; default all). */
  sdk?: string;
  /** Why the mock differs there (what it does not model yet). */
  reason: string;
}

/** What a report comes to, read with the known differences. */
export interface KnownVerdict {
  /** No difference or error outside the known ones. */
  passed: boolean;
  /** The modes that differ and are known (with the entry's reason). */
  known: Array<{ case: string; mode: string; reason: string }>;
  /** The modes that differ (or failed to run) and are not known. */
  unexpected: Array<{ case: string; mode: string }>;
  /** The entries whose runs in this report all matched (identical or explained): remove them. */
  stale: KnownDifference[];
}

/** Checks parsed known differences (a JSON array, or `{ "known": [...] }`). */
export function checkKnownDifferences(
  data: unknown,
  source = "known differences",
): KnownDifference[] {
  const list = data !== null && typeof data === "object" && !Array.isArray(data) &&
      Array.isArray((data as { known?: unknown }).known)
    ? (data as { known: unknown[] }).known
    : data;
  if (!Array.isArray(list)) {
    throw new TypeError(`Cannot load the known differences ${source}: expected an array`);
  }
  return list.map((entry, i) => {
    const fail = (what: string): never => {
      throw new TypeError(`Cannot load the known differences ${source}: entry ${i} ${what}`);
    };
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      return fail("must be an object");
    }
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!["case", "mode", "sdk", "reason"].includes(key)) fail(`has an unknown key '${key}'`);
    }
    if (typeof e.case !== "string" || e.case === "") fail("needs a 'case' (a name or glob)");
    if (typeof e.reason !== "string" || e.reason.trim().length < 10) {
      fail("needs a 'reason' that says what the mock does not model yet");
    }
    for (const key of ["mode", "sdk"] as const) {
      if (e[key] !== undefined && (typeof e[key] !== "string" || e[key] === "")) {
        fail(`'${key}' must be a non-empty string`);
      }
    }
    return e as unknown as KnownDifference;
  });
}

/** Reads and checks a known-differences file. */
export async function loadKnownDifferences(path: string): Promise<KnownDifference[]> {
  return checkKnownDifferences(await readJsonFile(path, "the known differences"), path);
}

/**
 * Reads `report` with the known differences: which differing modes are known, which are not,
 * and which entries no longer match anything that differs.
 */
export function judgeWithKnown(
  report: ConformReport,
  known: readonly KnownDifference[],
): KnownVerdict {
  const verdict: KnownVerdict = { passed: true, known: [], unexpected: [], stale: [] };
  const used = new Set<KnownDifference>();
  const matching = new Set<KnownDifference>();
  for (const c of report.cases) {
    for (const m of c.modes) {
      const entries = known.filter((k) =>
        glob(k.case, c.case) && glob(k.mode ?? "*", m.mode) && glob(k.sdk ?? "*", report.sdk)
      );
      for (const e of entries) matching.add(e);
      if (m.status === "identical" || m.status === "explained") continue;
      if (entries.length > 0) {
        used.add(entries[0]);
        verdict.known.push({ case: c.case, mode: m.mode, reason: entries[0].reason });
      } else {
        verdict.unexpected.push({ case: c.case, mode: m.mode });
      }
    }
  }
  verdict.stale = known.filter((k) => matching.has(k) && !used.has(k));
  verdict.passed = verdict.unexpected.length === 0;
  return verdict;
}
