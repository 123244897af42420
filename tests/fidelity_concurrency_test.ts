// When the real CLI starts the tools of one message (recordings v328_conc_* and v332_conc_*, the
// API streaming at full speed, partial messages on): a concurrency-safe tool (Read, Glob, Grep)
// after only such tools starts as soon as its block is complete, so its permission request
// comes before its block's end and before the next block; a first tool of another kind is asked
// after its block; the others once the tools before them ran. Both directions compared frame by
// frame, values included.
import assert from "node:assert/strict";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape, recAllow, recordedToolResults } from "./_fidelity.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";

for (const version of ["328", "331", "332"]) {
  Deno.test(`concurrency (2.1.${version}): a Read outside the cwd, then a Bash: the Read asked before the Bash block`, async () => {
    const name = `v${version}_conc_read_outside_bash`;
    const { canUseTool, calls } = recAllow();
    const hostname = [...(await recordedToolResults(name)).values()][0].replace(/^1\t|\n2\t$/g, "");
    await compareTape(
      name,
      new ScenarioBuilder().on("Do the two things.").usesTogether(
        (t) =>
          t.usesRead("/etc/hostname", { content: `${hostname}\n` })
            .usesBash("touch made.txt", { description: "Create made.txt" }),
        { say: "Doing it." },
      )
        .respond("Done.").build(),
      { maxTurns: 3, permissionMode: "default", includePartialMessages: true, canUseTool },
    );
    assert.deepEqual(calls.map((c) => c.toolName), ["Read", "Bash"]);
  });
}

for (const version of ["328", "332"]) {
  Deno.test(`concurrency (2.1.${version}): a Read an ask rule covers, then a Bash`, async () => {
    const { canUseTool } = recAllow();
    await compareTape(
      `v${version}_conc_read_ask_bash`,
      new ScenarioBuilder().on("Do the two things.").usesTogether(
        (t) =>
          t.usesRead(`${CWD}/notes.txt`, { content: NOTES })
            .usesBash("touch made.txt", { description: "Create made.txt" }),
        { say: "Doing it." },
      )
        .respond("Done.").build(),
      {
        maxTurns: 3,
        permissionMode: "default",
        includePartialMessages: true,
        canUseTool,
        settings: { permissions: { ask: ["Read"] } },
      },
    );
  });

  Deno.test(`concurrency (2.1.${version}): a Bash, then a Read outside the cwd: the Bash asked after its block, the Read once the Bash ran`, async () => {
    const name = `v${version}_conc_bash_read_outside`;
    const { canUseTool } = recAllow();
    const hostname = [...(await recordedToolResults(name)).values()][1].replace(/^1\t|\n2\t$/g, "");
    await compareTape(
      name,
      new ScenarioBuilder().on("Do the two things.").usesTogether(
        (t) =>
          t.usesBash("touch made.txt", { description: "Create made.txt" })
            .usesRead("/etc/hostname", { content: `${hostname}\n` }),
        { say: "Doing it." },
      )
        .respond("Done.").build(),
      { maxTurns: 3, permissionMode: "default", includePartialMessages: true, canUseTool },
    );
  });
}

for (const version of ["328", "331", "332"]) {
  Deno.test(`concurrency (2.1.${version}): Glob and Grep asked as their blocks end, the Write after them`, async () => {
    const { canUseTool, calls } = recAllow();
    await compareTape(
      `v${version}_conc_glob_grep_write`,
      new ScenarioBuilder().on("Do the two things.").usesTogether(
        (t) =>
          t.usesTool("Glob", { pattern: "*.txt" }, { result: "notes.txt" })
            .usesTool("Grep", { pattern: "make" }, { result: "Found 1 file\nnotes.txt" })
            .usesWrite(`${CWD}/out.txt`, { content: "x\n" }),
        { say: "Doing it." },
      )
        .respond("Done.").build(),
      {
        maxTurns: 3,
        permissionMode: "default",
        includePartialMessages: true,
        canUseTool,
        tools: ["Read", "Glob", "Grep", "Bash", "Write"],
        settings: { permissions: { ask: ["Glob", "Grep"] } },
      },
      // Glob's and Grep's structured results are the live tools' (src/cli/live_tools_test.ts)
      { skipValues: ["user"] },
    );
    assert.deepEqual(calls.map((c) => c.toolName), ["Glob", "Grep", "Write"]);
  });
}
