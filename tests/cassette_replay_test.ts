// Replaying every real recording through the real Agent SDK: the app must get exactly the
// messages the recording's `.messages.jsonl` lists, in each mode that applies.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { CassetteMismatchError, SnapshotPlayer } from "../cassette.ts";
import { parseTape, type Tape } from "../cassette.ts";
import { fromFileUrl } from "./_paths.ts";

const REAL = fromFileUrl(new URL("./fixtures/real/", import.meta.url));

function readTapeFile(path: string): Tape {
  return parseTape(Deno.readTextFileSync(path), { source: path });
}

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

function expectedMessages(name: string): unknown[] {
  return Deno.readTextFileSync(`${REAL}${name}.messages.jsonl`).split("\n")
    .filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

/** The exit recorded beside a failure tape. */
function recordedEnding(name: string): { code: number | null; signal: string | null } | undefined {
  try {
    const meta = JSON.parse(Deno.readTextFileSync(`${REAL}${name}.meta.json`));
    return meta.exit ? { code: meta.exit.code, signal: meta.exit.signal } : undefined;
  } catch {
    return undefined;
  }
}

async function replay(
  name: string,
  mode: "inert" | "stub",
): Promise<{ messages: SDKMessage[]; error?: Error; player: SnapshotPlayer }> {
  const tape = readTapeFile(`${REAL}${name}.jsonl`);
  const player = new SnapshotPlayer(tape, { mode, ending: recordedEnding(name) });
  const messages: SDKMessage[] = [];
  const q = query({
    prompt: player.prompt(),
    options: {
      ...(mode === "stub" ? player.options() as Record<string, unknown> : {}),
      spawnClaudeCodeProcess: player.spawn,
    },
  });
  const driving = player.drive(q);
  let error: Error | undefined;
  try {
    for await (const message of q) messages.push(message);
  } catch (e) {
    error = e as Error;
  }
  await driving;
  return { messages, error, player };
}

for (const name of tapeNames()) {
  for (const mode of ["inert", "stub"] as const) {
    Deno.test(`replay ${mode}: ${name} gives the app the recorded messages`, async () => {
      const { messages, player } = await replay(name, mode);
      player.assertFinished();
      assert.deepEqual(JSON.parse(JSON.stringify(messages)), expectedMessages(name));
    });
  }
}

Deno.test("replay: a different prompt fails closed with a readable diff and the tape line", async () => {
  const tape = readTapeFile(`${REAL}hello.jsonl`);
  const player = new SnapshotPlayer(tape);
  const messages: SDKMessage[] = [];
  let thrown: unknown;
  try {
    for await (
      const m of query({ prompt: "goodbye", options: { spawnClaudeCodeProcess: player.spawn } })
    ) messages.push(m);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof Error, "the SDK saw the process fail");
  const error = player.mismatches[0];
  assert.ok(error instanceof CassetteMismatchError);
  assert.equal(error.line, 3);
  assert.match(error.message, /hello\.jsonl:3: the app sent another user message/);
  assert.match(error.message, /- message\.content\[0\]\.text: "hello"/);
  assert.match(error.message, /\+ message\.content\[0\]\.text: "goodbye"/);
  assert.throws(() => player.assertFinished(), CassetteMismatchError);
});
