import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { scenarioFromJSON } from "../scenario/scenario_from_json.ts";
import { ScenarioBuilder } from "../scenario/scenario_builder.ts";
import {
  type ProcessSpawnOptions,
  recordingSpawn,
  type SpawnedProcessLike,
} from "./recording_spawn.ts";
import { scenarioSandbox } from "./scenario_sandbox.ts";

/** A stand-in for claude: prints its cwd, a seeded file and the API's answer to "hello" as JSON. */
const PROGRAM = `
const base = Deno.env.get("ANTHROPIC_BASE_URL");
const r = await fetch(base + "/v1/messages?beta=true", {
  method: "POST",
  headers: { "x-api-key": Deno.env.get("ANTHROPIC_API_KEY") },
  body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }),
});
const body = await r.json();
console.log(JSON.stringify({
  type: "probe",
  cwd: Deno.cwd(),
  seeded: await Deno.readTextFile("notes.txt"),
  config: Deno.env.get("CLAUDE_CONFIG_DIR"),
  said: body.content[0].text,
}));
`;

function denoSpawn(o: ProcessSpawnOptions): SpawnedProcessLike {
  return spawn(Deno.execPath(), ["eval", "--quiet", PROGRAM], {
    cwd: o.cwd,
    env: o.env as Record<string, string>,
    signal: o.signal,
    stdio: ["pipe", "pipe", "pipe"],
  }) as unknown as SpawnedProcessLike;
}

Deno.test("recordingSpawn with api: the process runs in the sandbox, against the scenario's API, which is gone after", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scenario = new ScenarioBuilder({ name: "hi" }).on("hello").respond(
      "Hi from the scenario.",
    )
      .build();
    const spawner = recordingSpawn({
      out: `${dir}/t.jsonl`,
      api: { scenario, files: { "notes.txt": "seeded\n" } },
      spawn: denoSpawn,
    });
    const child = spawner({
      command: "claude",
      args: [],
      cwd: "/",
      env: { PATH: Deno.env.get("PATH") ?? "" },
      signal: new AbortController().signal,
    });
    child.stdin.end();
    child.stdout.resume();
    const exit = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    assert.equal(await exit, 0);
    const tape = await spawner.finished;
    assert.equal(tape.header.messages_api, "scenario");
    const probe = tape.entries.find((e) => "frame" in e && e.frame.type === "probe") as unknown as {
      frame: { cwd: string; seeded: string; config: string; said: string };
    };
    assert.equal(probe.frame.said, "Hi from the scenario.");
    assert.equal(probe.frame.seeded, "seeded\n");
    assert.match(probe.frame.cwd, /\/project$/);
    assert.match(probe.frame.config, /\/config$/);
    assert.deepEqual(spawner.journal.map((e) => e.kind), ["conversation"]);
    // the sandbox was removed before the exit reached the caller
    await assert.rejects(() => Deno.stat(probe.frame.cwd), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("recordingSpawn with api: a scenario the API cannot serve is a spawn error naming the step", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scenario = scenarioFromJSON({
      name: "c",
      exchanges: [{ on: "x", steps: [{ crash: {} }] }],
    });
    const spawner = recordingSpawn({ out: `${dir}/t.jsonl`, api: scenario, spawn: denoSpawn });
    const child = spawner({
      command: "claude",
      args: [],
      env: {},
      signal: new AbortController().signal,
    });
    const error = await new Promise<Error>((resolve) => child.once("error", resolve));
    assert.match(
      error.message,
      /^Cannot serve scenario 'c': exchange 1 \(contains "x"\) steps\[0\] is a crash step/,
    );
    const tape = await spawner.finished;
    assert.equal(tape.ending, undefined, "a failed spawn never exits");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scenarioSandbox refuses a file outside the working directory", async () => {
  const scenario = new ScenarioBuilder().build();
  await assert.rejects(
    () => scenarioSandbox(scenario, { files: { "../escape.txt": "x" } }),
    new TypeError(
      `Cannot make the sandbox: the file "../escape.txt" is outside the working directory (give a relative path, or one under /home/user/project)`,
    ),
  );
  await assert.rejects(() => scenarioSandbox(scenario, { files: { "/etc/x": "x" } }), TypeError);
});
