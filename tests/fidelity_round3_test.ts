// Fidelity round three: which tools a session has. Recordings of the real CLI 2.1.328 in
// tests/fixtures/real/r3_* (the SDK's `tools` and `disallowedTools`, settings deny rules, tool
// names the CLI does not offer) replayed through the real SDK and the mock, both directions
// compared frame by frame, and the tools `system/init` lists.
import assert from "node:assert/strict";
import { ScenarioBuilder } from "../mod.ts";
import { type BuildContext, genericTool } from "../builders.ts";
import { compareTape, readTape, recAllow } from "./_fidelity.ts";
import type { Frame } from "../wire.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";
const base = { permissionMode: "default" as const, maxTurns: 4 };

/** The `tools` of the tape's `system/init` and of the mock's. */
async function initTools(name: string, out: Frame[]): Promise<[unknown, unknown]> {
  const tape = await readTape(name);
  const real = tape.lines.find((l) => l.frame.type === "system" && l.frame.subtype === "init");
  const mine = out.find((f) => f.type === "system" && f.subtype === "init");
  return [mine?.tools, real?.frame.tools];
}

Deno.test("r3 fidelity: tools the session does not have fail with the CLI's error, unasked", async () => {
  const { canUseTool, calls } = recAllow();
  const name = "r3_unknown_tools";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("Use some tools.")
      .usesTogether((t) =>
        t.usesTool("Frobnicate", { level: 3 }, { result: "scripted, never written" })
          .usesTool("mcp__nowhere__thing", { a: 1 })
          .usesTool("Glob", { pattern: "*.txt" })
          .usesTool("LS", { path: CWD })
          .usesTool("MultiEdit", { file_path: `${CWD}/notes.txt`, edits: [] })
          .usesTool("TodoWrite", { todos: [] })
          .usesRead(`${CWD}/notes.txt`, { content: NOTES })
      )
      .respond("Done.")
      .build(),
    { ...base, canUseTool },
  );
  assert.deepEqual(calls, [], "no permission asked for a tool that is not there");
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
});

Deno.test("r3 fidelity: --tools= offers no built-in tool", async () => {
  const { canUseTool } = recAllow();
  const name = "r3_tools_empty";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder().on("Read notes.").usesRead(`${CWD}/notes.txt`, { content: NOTES })
      .respond("Done.").build(),
    { ...base, tools: [], canUseTool },
  );
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
  assert.deepEqual(mine, []);
});

Deno.test("r3 fidelity: --tools=Read offers Read alone", async () => {
  const { canUseTool } = recAllow();
  const name = "r3_tools_subset";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("Write a file.")
      .usesTogether((t) =>
        t.usesWrite(`${CWD}/out.txt`, { content: "x" })
          .usesRead(`${CWD}/notes.txt`, { content: NOTES })
      )
      .respond("Done.")
      .build(),
    { ...base, tools: ["Read"], canUseTool },
  );
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
});

Deno.test("r3 fidelity: --tools without Bash; unknown names and TodoWrite left out", async () => {
  const { canUseTool } = recAllow();
  const name = "r3_tools_no_bash_glob";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("Find.")
      .usesTogether((t) =>
        t.usesTool("Glob", { pattern: "*.txt" })
          .usesTool("TodoWrite", { todos: [] })
          .usesTool("Monitor", { command: "ls" })
      )
      .respond("Done.")
      .build(),
    { ...base, tools: ["Read", "Frobnicate", "TodoWrite"], canUseTool },
  );
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
});

Deno.test("r3 fidelity: without canUseTool the interactive tools are not there", async () => {
  const name = "r3_tools_catalogue";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("Try tools.")
      .steps({
        kind: "message",
        parts: [
          ["AskUserQuestion", { questions: [] }],
          ["ExitPlanMode", { plan: "x" }],
          ["BashOutput", { bash_id: "1" }],
          ["NotebookRead", { notebook_path: "x.ipynb" }],
          ["TaskOutput", { task_id: "1" }],
          ["TodoRead", {}],
          ["LSP", {}],
        ].map(([name, input]) => (ctx: BuildContext) =>
          genericTool(ctx, name as string, {
            input: input as Record<string, unknown>,
            result: "scripted, never written",
          })
        ),
      })
      .respond("Done.")
      .build(),
    base,
  );
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
});

Deno.test("r3 fidelity: --disallowedTools Bash takes Bash out (Glob and Grep in); a path rule denies a Read", async () => {
  const { canUseTool, calls } = recAllow();
  const name = "r3_disallowed_bash";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("List files.")
      .usesTogether((t) =>
        t.usesBash("ls", { description: "List files", stdout: "notes.txt" })
          .usesRead(`${CWD}/notes.txt`, { content: NOTES })
      )
      .respond("Done.")
      .build(),
    { ...base, disallowedTools: ["Bash", "Read(./notes.txt)"], canUseTool },
  );
  assert.deepEqual(calls, []);
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
  assert.ok((mine as string[]).includes("Glob") && !(mine as string[]).includes("Monitor"));
});

Deno.test("r3 fidelity: settings deny rules: a Bash command at once, a whole tool out, a path when the tools run", async () => {
  const { canUseTool, calls } = recAllow();
  const name = "r3_deny_rules";
  const { ours } = await compareTape(
    name,
    new ScenarioBuilder()
      .on("Do things.")
      .usesTogether((t) =>
        t.usesBash("rm -rf build", { description: "Remove build" })
          .usesBash("ls", { description: "List", stdout: "notes.txt" })
          .usesWrite(`${CWD}/out.txt`, { content: "x" })
          .usesEdit(`${CWD}/notes.txt`, {
            oldString: "make",
            newString: "cmake",
            originalFile: NOTES,
          })
          .usesTool("Glob", { pattern: "*.txt" })
      )
      .respond("Done.")
      .build(),
    {
      ...base,
      settings: { permissions: { deny: ["Bash(rm:*)", "Write", "Edit(./notes.txt)"] } },
      tools: ["Bash", "Write", "Edit", "Read"],
      canUseTool,
    },
  );
  assert.deepEqual(calls, [], "a deny rule asks no one");
  const [mine, real] = await initTools(name, ours.out);
  assert.deepEqual(mine, real);
});
