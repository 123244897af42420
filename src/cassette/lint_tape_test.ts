import assert from "node:assert/strict";
import { lintTape, type TapeProblem } from "./lint_tape.ts";
import { loadTape } from "./load_tape.ts";
import { scrubTape } from "./scrub_tape.ts";
import type { Tape, TapeDirection, TapeEntry } from "./tape.ts";

const HEADER = { version: 1, cli_version: "2.1.328", sdk_version: "0.3.328" };
let next = 2;
const f = (dir: TapeDirection, frame: Record<string, unknown>, t = 0): TapeEntry => ({
  t,
  dir,
  line: next++,
  frame: frame as { type: string },
});
const tape = (entries: TapeEntry[], extra: Partial<Tape> = {}): Tape => {
  next = 2;
  return { header: HEADER, entries, ...extra };
};
const brief = (problems: TapeProblem[]) => problems.map((p) => `${p.line} ${p.severity} ${p.code}`);
const root = new URL("../../", import.meta.url);
const load = (path: string) => loadTape(decodeURIComponent(new URL(path, root).pathname));

Deno.test("lintTape: the committed snapshots are clean", async () => {
  for await (const e of Deno.readDir(new URL("snapshots/", root))) {
    if (!e.name.endsWith(".jsonl") || e.name.endsWith(".messages.jsonl")) continue;
    if (e.name === "hello.real.jsonl") continue; // kept unscrubbed, see snapshots/README.md
    assert.deepEqual(lintTape(await load(`snapshots/${e.name}`)), [], e.name);
  }
});

Deno.test("lintTape: a real recording's unscrubbed paths are warnings, per line", async () => {
  const problems = lintTape(await load("tests/fixtures/real/hello.jsonl"));
  assert.ok(problems.length > 0);
  assert.ok(problems.every((p) => p.severity === "warning" && p.code === "path"));
  const init = problems.filter((p) => p.line === 6).map((p) => p.message);
  assert.deepEqual(init, [
    "Unscrubbed the cwd /home/user/project in the cli->sdk system/init frame (in " +
    decodeURIComponent(new URL("tests/fixtures/real/hello.jsonl", root).pathname) + ")",
    "Unscrubbed the home directory /home/user in the cli->sdk system/init frame (in " +
    decodeURIComponent(new URL("tests/fixtures/real/hello.jsonl", root).pathname) + ")",
    "Unscrubbed the cwd's project slug -home-user-project in the cli->sdk system/init frame (in " +
    decodeURIComponent(new URL("tests/fixtures/real/hello.jsonl", root).pathname) + ")",
  ]);
  const scrubbed = scrubTape(await load("tests/fixtures/real/hello.jsonl"), { machine: false });
  assert.deepEqual(lintTape(scrubbed), []);
});

Deno.test("lintTape: secrets are errors and never repeated in the message", () => {
  const problems = lintTape(tape([
    f("cli->sdk", { type: "user", text: "use sk-ant-api03-SECRETSECRET" }),
    f("sdk->cli", { type: "user", env: { ANTHROPIC_API_KEY: "plainvalue" } }),
    { t: 0, dir: "stderr", line: next++, text: "Authorization: Bearer abcdefghijkl" },
    f("cli->sdk", { type: "user", text: "at http://127.0.0.1:8080 and /Users/ada/x" }),
  ]));
  assert.deepEqual(brief(problems), [
    "2 error secret",
    "3 error secret",
    "4 error secret",
    "5 warning host",
    "5 warning path",
  ]);
  for (const p of problems) assert.doesNotMatch(p.message, /SECRETSECRET|plainvalue|abcdefghijkl/);
  assert.equal(
    problems[0].message,
    "Unscrubbed an Anthropic API key (sk-ant-…) in the cli->sdk user frame",
  );
  assert.equal(problems[1].message, "Unscrubbed a secret-named value in the sdk->cli user frame");
  assert.equal(
    problems[4].message,
    'Unscrubbed a home directory path ("/Users/ada") in the cli->sdk user frame',
  );
});

Deno.test("lintTape: the machine's values only with machine: true", () => {
  const t = tape([f("cli->sdk", { type: "user", text: `${Deno.cwd()}/x` })]);
  assert.deepEqual(brief(lintTape(t)).filter((p) => p.endsWith("path")), []);
  assert.deepEqual(brief(lintTape(t, { machine: true })), ["2 warning path"]);
  assert.deepEqual(brief(lintTape(t, { cwd: Deno.cwd() })), ["2 warning path"]);
});

Deno.test("lintTape: header, versions, raw lines, time order, cut", () => {
  assert.deepEqual(brief(lintTape({ header: {} as Tape["header"], entries: [] })), [
    "1 error no-header",
  ]);
  const problems = lintTape({
    header: { version: 1, cli_version: "2.1.328" },
    entries: [
      { t: 5, dir: "cli->sdk", line: 2, raw: "not json" },
      { t: 3, dir: "stderr", line: 3, text: "late" },
    ],
    complete: false,
    source: "t.jsonl",
  });
  assert.deepEqual(brief(problems), [
    "1 warning no-versions",
    "2 warning not-json",
    "3 warning time-order",
    "3 warning cut",
  ]);
  assert.deepEqual(problems.map((p) => p.message), [
    "The header does not say sdk_version (line 1) (in t.jsonl)",
    "Line 2 is not a JSON frame (cli->sdk) (in t.jsonl)",
    "Time goes back at line 3: 3 ms after 5 ms (in t.jsonl)",
    "The tape was cut short after line 3: it has no ending line (in t.jsonl)",
  ]);
});

Deno.test("lintTape: frame kinds the SDK's types do not know", () => {
  const problems = lintTape(tape([
    f("cli->sdk", { type: "system", subtype: "init" }),
    f("cli->sdk", { type: "system", subtype: "brand_new" }),
    f("cli->sdk", { type: "bogus" }),
    f("cli->sdk", { type: "assistant" }),
    f("sdk->cli", { type: "control_request", request_id: "a", request: { subtype: "teleport" } }),
    f("cli->sdk", { type: "control_response", response: { subtype: "error", request_id: "a" } }),
  ]));
  assert.deepEqual(problems.map((p) => `${p.line} ${p.code}: ${p.message}`), [
    '3 unknown-type: The SDK\'s types do not know system subtype "brand_new" (line 3)',
    '4 unknown-type: The SDK\'s types do not know message type "bogus" (line 4)',
    '6 unknown-control: The SDK\'s types do not know control request subtype "teleport" (sdk->cli, line 6)',
  ]);
});

Deno.test("lintTape: unanswered requests, cancellations, answers to nothing, double answers", () => {
  const req = (id: string, subtype = "can_use_tool") => ({
    type: "control_request",
    request_id: id,
    request: { subtype },
  });
  const res = (id: string) => ({
    type: "control_response",
    response: { subtype: "success", request_id: id },
  });
  const problems = lintTape(tape([
    f("cli->sdk", req("p1")),
    f("cli->sdk", req("p2")),
    f("cli->sdk", { type: "control_cancel_request", request_id: "p2" }),
    f("sdk->cli", res("p2")), // an answer after the cancellation is fine
    f("sdk->cli", req("s1", "interrupt")),
    f("sdk->cli", res("s1")), // same direction: answers nothing
    f("cli->sdk", res("s1")),
    f("cli->sdk", res("s1")),
    f("cli->sdk", res("zz")),
  ]));
  assert.deepEqual(problems.map((p) => `${p.line} ${p.code}: ${p.message}`), [
    "2 unanswered: The cli->sdk control request p1 at line 2 is never answered",
    '7 orphan-response: The control_response at line 7 (sdk->cli) answers no cli->sdk control request (request_id "s1")',
    "9 orphan-response: The control_response at line 9 answers request s1 (line 6) again",
    '10 orphan-response: The control_response at line 10 (cli->sdk) answers no sdk->cli control request (request_id "zz")',
  ]);
});
