// tapeToScenario: every real recording, converted to a scenario file and run by the engine
// through the real SDK, gives the app the recorded messages; the file round-trips as JSON.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { parseTape, SnapshotPlayer, type Tape, tapeToScenario } from "../cassette.ts";

import { MockTransport, scenarioFromJSON } from "../mod.ts";
import { jsonEqual } from "../src/wire/_canonical_json.ts";
import { fromFileUrl } from "./_paths.ts";

const REAL = fromFileUrl(new URL("./fixtures/real/", import.meta.url));

function tapeNames(): string[] {
  const names: string[] = [];
  for (const dir of ["", "failures/"]) {
    for (const e of Deno.readDirSync(`${REAL}${dir}`)) {
      if (e.name.endsWith(".jsonl") && !e.name.endsWith(".messages.jsonl")) {
        names.push(`${dir}${e.name.slice(0, -6)}`);
      }
    }
  }
  return names.sort();
}

const readJsonl = (path: string) =>
  Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

/** Frames equal for the app: the same JSON, key order ignored. */
const same = jsonEqual;

interface AppAction {
  /** Fire once the app has received this many messages. */
  after: number;
  frame: Record<string, unknown>;
}

/** What the recorded app did, each placed after the last message it had seen. */
function appActions(tape: Tape, messages: unknown[]): AppAction[] {
  const actions: AppAction[] = [];
  let seen = 0;
  for (const entry of tape.entries) {
    if (!("frame" in entry)) continue;
    if (entry.dir === "cli->sdk") {
      const at = messages.findIndex((m, i) => i >= seen && same(m, entry.frame));
      if (at >= 0) seen = at + 1;
      continue;
    }
    const frame = entry.frame as Record<string, unknown>;
    if (frame.type === "user") actions.push({ after: seen, frame });
    if (frame.type === "control_request") {
      const request = frame.request as { subtype: string };
      if (request.subtype !== "initialize") actions.push({ after: seen, frame });
    }
  }
  return actions;
}

async function runConverted(name: string): Promise<{ got: unknown[]; want: unknown[] }> {
  const tape = parseTape(Deno.readTextFileSync(`${REAL}${name}.jsonl`), { source: name });
  const want = readJsonl(`${REAL}${name}.messages.jsonl`);
  const file = JSON.parse(JSON.stringify(tapeToScenario(tape, { timing: false })));
  const mock = new MockTransport(scenarioFromJSON(file));
  const stubs = new SnapshotPlayer(tape, { mode: "stub" }).options();
  const actions = appActions(tape, want);
  const got: SDKMessage[] = [];
  let wake = () => {};
  const progress = () => new Promise<void>((resolve) => (wake = resolve));
  let next = progress();
  let send = (_request: Record<string, unknown>): Promise<unknown> => Promise.resolve();
  const prompts = (async function* () {
    for (const action of actions) {
      while (got.length < action.after) await next;
      if (action.frame.type === "user") {
        yield {
          type: "user" as const,
          session_id: "",
          parent_tool_use_id: null,
          message: action.frame.message as { role: "user"; content: string },
        };
      } else {
        const request = action.frame.request as Record<string, unknown>;
        void send(request);
      }
    }
    while (got.length < want.length) await next;
  })();
  const q = query({
    prompt: prompts,
    options: { ...stubs as Record<string, unknown>, spawnClaudeCodeProcess: mock.spawn },
  });
  const raw = q as unknown as { request(body: Record<string, unknown>): Promise<unknown> };
  send = (request) => raw.request(request).catch(() => {});
  try {
    for await (const m of q) {
      got.push(m);
      wake();
      next = progress();
    }
  } catch {
    // a failure tape ends in a non-zero exit, as recorded
  }
  return { got: JSON.parse(JSON.stringify(got)), want };
}

for (const name of tapeNames()) {
  Deno.test(`tapeToScenario: ${name} runs to the recorded messages`, async () => {
    const { got, want } = await runConverted(name);
    assert.deepEqual(got, want);
  });
}

Deno.test("tapeToScenario: the file form, its answers and its ending", () => {
  const tape = parseTape(Deno.readTextFileSync(`${REAL}cp_set_model.jsonl`));
  const file = tapeToScenario(tape);
  assert.equal(file.verbatim, true);
  assert.ok(file.initialize && "commands" in file.initialize, "the recorded initialize answer");
  assert.deepEqual(file.answers?.map((a) => a.request.subtype), ["set_model", "set_model"]);
  const steps = file.exchanges.flatMap((e) => e.steps as unknown as Record<string, unknown>[]);
  assert.ok(steps.some((s) => "waitFor" in s), "the app's request is waited for");
  assert.ok(steps.some((s) => typeof s.delay === "number" && s.delay > 0), "recorded delays");
  const failed = tapeToScenario(
    parseTape(Deno.readTextFileSync(`${REAL}failures/auth_error.jsonl`)),
  );
  void failed;
  const cut = tapeToScenario({ ...tape, ending: { t: 1, code: 1, signal: null } });
  assert.deepEqual(cut.exchanges.at(-1)!.steps.at(-1), { exit: 1 });
  assert.deepEqual(scenarioFromJSON(JSON.parse(JSON.stringify(file))).verbatim, true);
});
