// A cassette replays what was recorded: the player's SDK options make the SDK spawn the CLI
// with the recording's own flags (tests/fixtures/real/, every tape), and a tape cut short in
// the recorder's own format fails instead of replaying silently.
import assert from "node:assert/strict";
import { query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { parseTape, SnapshotPlayer, type Tape } from "../cassette.ts";
import { sdkQueryFor } from "./_fidelity.ts";
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

const read = (name: string): Tape =>
  parseTape(Deno.readTextFileSync(`${REAL}${name}.jsonl`), { source: `${name}.jsonl` });

Deno.test("SnapshotPlayer.options(): the SDK spawns the CLI with each recording's flags", async () => {
  const differ: string[] = [];
  for (const name of tapeNames()) {
    const tape = read(name);
    const player = new SnapshotPlayer(tape, { mode: "stub" });
    let spawned: string[] | undefined;
    const sdkQuery = await sdkQueryFor({
      args: [],
      lines: [],
      messages: [],
      sdkVersion: tape.header.sdk_version as string | undefined,
    });
    const q = sdkQuery({
      prompt: player.prompt(),
      options: {
        ...player.options() as Record<string, unknown>,
        spawnClaudeCodeProcess: (o) => {
          spawned = o.args;
          return player.spawn(o);
        },
      },
    });
    const driving = player.drive(q);
    try {
      for await (const _ of q as AsyncIterable<SDKMessage>) { /* drain */ }
    } catch { /* a recorded error result */ }
    await driving;
    const recorded = tape.header.args ?? [];
    if (JSON.stringify(spawned) !== JSON.stringify(recorded)) {
      differ.push(
        `${name}: spawned ${JSON.stringify(spawned)}, recorded ${JSON.stringify(recorded)}`,
      );
    }
  }
  assert.deepEqual(differ, []);
});

Deno.test("SnapshotPlayer: a recording in the recorder's format cut inside a turn fails, naming the line", async () => {
  const lines = Deno.readTextFileSync(`${REAL}hello.jsonl`).trim().split("\n");
  // the recorder stopped before the result (and the idle state after it)
  const cut = lines.filter((l) => !l.includes('"type":"result"') && !l.includes('"state":"idle"'));
  const player = new SnapshotPlayer(parseTape(cut.join("\n") + "\n", { source: "cut.jsonl" }));
  let thrown: unknown;
  try {
    for await (
      const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: player.spawn } })
    ) { /* drain */ }
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof Error, "the SDK saw the replay fail");
  assert.match(
    player.mismatches[0]?.message ?? "",
    /cut\.jsonl:3: the tape ends inside a turn: the app's message here has no result after it/,
  );
  assert.throws(() => player.assertFinished(), /the tape ends inside a turn/);
  // a tape that says how its process ended (a recorder killed a hung CLI) replays to that end
  const hung = new SnapshotPlayer(parseTape(cut.join("\n") + "\n", { source: "hung.jsonl" }), {
    ending: { code: 143, signal: null },
  });
  try {
    for await (
      const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: hung.spawn } })
    ) { /* drain */ }
  } catch { /* exit 143 */ }
  assert.equal((await hung.exited).code, 143);
  assert.equal(hung.mismatches.length, 0);
});
