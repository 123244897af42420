// A finished query lets its engine go: a long-lived mock (a setup file's) keeps each query's
// records, not its session's machinery. A child process runs queries through a global
// `mockClaude()`, collects garbage and writes a heap snapshot; no `Engine` may be left in it.
// (A closure made in `Session`'s constructor once kept every engine alive through the
// constructor's shared scope: 37 KiB per query instead of 19.)
import assert from "node:assert/strict";
import { fromFileUrl } from "./_paths.ts";

const CHILD = `
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import { writeHeapSnapshot } from "node:v8";
import { mockClaude, ScenarioBuilder, wrapClaudeSdk } from "${
  fromFileUrl(new URL("../mod.ts", import.meta.url))
}";
const scenario = new ScenarioBuilder().on("hi").repeat().respond("A reply.").build();
const { query } = wrapClaudeSdk(sdk);
const claude = mockClaude(scenario, { global: true });
for (let i = 0; i < 5; i++) for await (const _ of query({ prompt: "hi" }));
if (claude.transports.length !== 5) throw new Error("the mock lost its transports");
await Promise.all(claude.transports.map((t) => t.exited));
await new Promise((resolve) => setTimeout(resolve, 0));
globalThis.gc();
console.log(writeHeapSnapshot(Deno.args[0]));
await claude.close();
`;

/** How many live objects of class `name` a heap snapshot holds. */
function liveObjects(snapshot: string, name: string): number {
  const { snapshot: { meta }, nodes, strings } = JSON.parse(snapshot) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const width = meta.node_fields.length;
  const [typeAt, nameAt] = [meta.node_fields.indexOf("type"), meta.node_fields.indexOf("name")];
  const object = meta.node_types[0].indexOf("object");
  let n = 0;
  for (let i = 0; i < nodes.length; i += width) {
    if (nodes[i + typeAt] === object && strings[nodes[i + nameAt]] === name) n++;
  }
  return n;
}

Deno.test("a global mock keeps no engine of a query that ended", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-release-" });
  try {
    await Deno.writeTextFile(`${dir}/child.ts`, CHILD);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--v8-flags=--expose-gc",
        "--config",
        fromFileUrl(new URL("../deno.json", import.meta.url)),
        `${dir}/child.ts`,
        `${dir}/heap.heapsnapshot`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const snapshot = await Deno.readTextFile(`${dir}/heap.heapsnapshot`);
    assert.ok(liveObjects(snapshot, "MockTransport") >= 5, "the snapshot holds the transports");
    assert.equal(liveObjects(snapshot, "Engine"), 0, "engines of finished queries");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
