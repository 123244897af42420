// The same-bytes floor of the query benchmarks (scripts/speed_goals.ts, scripts/turn_breakdown.ts):
// what the mock writes for a one-turn query(), captured once, and a fake process on plain Node
// streams that writes those bytes (its answers to control requests, a turn's lines per prompt).
import { query, type SpawnedProcess, type SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { Buffer } from "node:buffer";
import { MockTransport, type Scenario } from "../mod.ts";
import { fakeProcess, type Json } from "./_fake_process.ts";

/** What the SDK's `spawnClaudeCodeProcess` is. */
export type Spawn = (options: SpawnOptions) => SpawnedProcess;

/** What the mock writes: its answers to control requests (by subtype) and a turn's lines. */
export interface Capture {
  answers: Map<string, [before: string, after: string]>;
  turn: Buffer[];
}

/** What the mock writes for a one-turn `query()` of `scenario` (a prompt "hello"). */
export async function capture(scenario: Scenario): Promise<Capture> {
  const mock = new MockTransport(scenario);
  let read = "";
  const ids = new Map<string, string>();
  const teeing: Spawn = (options) => {
    const child = mock.spawn(options) as unknown as SpawnedProcess;
    child.stdout.on("data", (c: Uint8Array) => void (read += new TextDecoder().decode(c)));
    const write = child.stdin.write.bind(child.stdin) as (...a: unknown[]) => boolean;
    child.stdin.write = ((chunk: unknown, ...rest: unknown[]) => {
      for (const line of String(chunk).split("\n")) {
        if (line.includes('"control_request"')) {
          const f = JSON.parse(line);
          ids.set(f.request_id, f.request.subtype);
        }
      }
      return write(chunk, ...rest);
    }) as typeof child.stdin.write;
    return child;
  };
  for await (const _ of query({ prompt: "hello", options: { spawnClaudeCodeProcess: teeing } })) {
    // drain
  }
  const answers = new Map<string, [string, string]>();
  const turn: Buffer[] = [];
  for (const line of read.split("\n").filter((l) => l !== "")) {
    const id = JSON.parse(line).response?.request_id;
    const subtype = ids.get(id);
    if (subtype === undefined) {
      turn.push(Buffer.from(line + "\n"));
      continue;
    }
    const needle = `"request_id":${JSON.stringify(id)}`;
    const at = line.indexOf(needle);
    answers.set(subtype, [
      line.slice(0, at) + `"request_id":`,
      line.slice(at + needle.length) + "\n",
    ]);
  }
  return { answers, turn };
}

/** A fake process on plain Node streams that writes `c`'s bytes: the floor. */
export function floorSpawn(c: Capture): Spawn {
  return () =>
    fakeProcess((frame, out) => {
      if (frame.type === "control_request") {
        const [before, after] = c.answers.get((frame.request as Json).subtype as string)!;
        out.push(before + JSON.stringify(frame.request_id) + after);
      } else if (frame.type === "user") { for (const line of c.turn) out.push(line); }
    });
}

/**
 * One `query()` of `turns` turns with a streaming prompt, each prompt "hello" sent when the
 * previous result arrived: the long session both benchmarks time.
 */
export async function longSession(spawn: Spawn, turns: number): Promise<void> {
  let release: (() => void) | undefined;
  let results = 0;
  const prompt = (async function* () {
    for (let i = 0; i < turns; i++) {
      if (i > 0) await new Promise<void>((r) => (release = r));
      yield {
        type: "user" as const,
        message: { role: "user" as const, content: "hello" },
        parent_tool_use_id: null,
      };
    }
  })();
  for await (const m of query({ prompt, options: { spawnClaudeCodeProcess: spawn } })) {
    if (m.type === "result") {
      results++;
      release?.();
    }
  }
  if (results !== turns) throw new Error(`${results} results for ${turns} turns`);
}
