import assert from "node:assert/strict";
import { checkKnownDifferences, judgeWithKnown } from "./_known_differences.ts";
import type { CaseResult, ConformReport, ModeResult } from "./run_conformance.ts";

function mode(name: string, status: ModeResult["status"]): ModeResult {
  return { mode: name, status, differences: [], ms: { mock: 1, real: 1 } };
}

function report(cases: Array<[string, ModeResult[]]>, sdk = "0.3.328"): ConformReport {
  const worst = (modes: ModeResult[]): CaseResult["status"] =>
    modes.find((m) => m.status === "error" || m.status === "different")?.status ?? "identical";
  return {
    sdk,
    claude: "claude",
    ms: 1,
    cases: cases.map(([name, modes]) => ({
      case: name,
      source: `${name}.json`,
      status: worst(modes),
      modes,
    })),
  };
}

const SUBAGENT = "the subagent's tools do not run through the hook engine yet";

Deno.test("known differences: a known one passes, an unknown one fails, each named", () => {
  const known = checkKnownDifferences([
    { case: "hooks_all_subagent", reason: SUBAGENT },
    { case: "failure_*", mode: "print:*", sdk: "0.3.332", reason: "print texts of 2.1.332" },
  ]);
  const run = report([
    ["hooks_all_subagent", [mode("duplex", "different"), mode("print:text", "identical")]],
    ["failure_overloaded", [mode("duplex", "identical"), mode("print:json", "different")]],
    ["simple", [mode("duplex", "explained")]],
  ]);
  const verdict = judgeWithKnown(run, known);
  assert.equal(verdict.passed, false);
  assert.deepEqual(verdict.known, [
    { case: "hooks_all_subagent", mode: "duplex", reason: SUBAGENT },
  ]);
  // the print entry is for 0.3.332 only: under 0.3.328 the failure's print run is unexpected
  assert.deepEqual(verdict.unexpected, [{ case: "failure_overloaded", mode: "print:json" }]);
  assert.deepEqual(verdict.stale, []);
  const latest = judgeWithKnown(
    report(
      [["failure_overloaded", [mode("duplex", "identical"), mode("print:json", "error")]]],
      "0.3.332",
    ),
    known,
  );
  assert.equal(latest.passed, true);
  assert.deepEqual(latest.known.map((k) => k.mode), ["print:json"]);
});

Deno.test("known differences: an entry whose runs all match now is named stale", () => {
  const known = checkKnownDifferences([{ case: "compact*", reason: "post_tokens counts hooks" }]);
  const verdict = judgeWithKnown(
    report([["compaction", [mode("duplex", "identical"), mode("print:text", "explained")]]]),
    known,
  );
  assert.equal(verdict.passed, true);
  assert.deepEqual(verdict.stale, known);
  // an entry for a case this run did not include is not stale (it was not tried)
  assert.deepEqual(judgeWithKnown(report([["other", [mode("duplex", "identical")]]]), known), {
    passed: true,
    known: [],
    unexpected: [],
    stale: [],
  });
});

Deno.test("known differences: bad entries are refused with where and why", () => {
  assert.throws(() => checkKnownDifferences({}, "k.json"), {
    name: "TypeError",
    message: "Cannot load the known differences k.json: expected an array",
  });
  assert.throws(() => checkKnownDifferences([{ case: "x" }], "k.json"), {
    message:
      "Cannot load the known differences k.json: entry 0 needs a 'reason' that says what the mock does not model yet",
  });
  assert.throws(() => checkKnownDifferences([{ case: "x", reason: "long enough", why: 1 }]), {
    message:
      "Cannot load the known differences known differences: entry 0 has an unknown key 'why'",
  });
  assert.throws(() => checkKnownDifferences([{ case: "x", reason: "long enough", mode: "" }]), {
    message:
      "Cannot load the known differences known differences: entry 0 'mode' must be a non-empty string",
  });
  assert.deepEqual(
    checkKnownDifferences({ known: [{ case: "a", reason: "the reason here" }] }),
    [{ case: "a", reason: "the reason here" }],
  );
});
