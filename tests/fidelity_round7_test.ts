// Fidelity round seven: what the SDK's permission answers change for the rest of the session
// (`updatedPermissions`: rules added, the mode set). Recordings of the real CLI 2.1.328 in
// tests/fixtures/real/r7_*, replayed through the real SDK and the mock, both directions
// compared frame by frame.
import assert from "node:assert/strict";
import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape, recordedToolResults } from "./_fidelity.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";

/** Allows, and keeps what the CLI suggested ("always allow"), as the recordings' app did. */
function alwaysAllow(): { canUseTool: CanUseTool; asked: string[] } {
  const asked: string[] = [];
  const canUseTool: CanUseTool = (toolName, input, options) => {
    asked.push(`${toolName} ${JSON.stringify(options.suggestions ?? [])}`);
    return Promise.resolve({
      behavior: "allow",
      updatedInput: input,
      updatedPermissions: options.suggestions ?? [],
    });
  };
  return { canUseTool, asked };
}

Deno.test("r7 fidelity: an allow that keeps the suggested rule is not asked again", async () => {
  const { canUseTool, asked } = alwaysAllow();
  // the recorded commands really ran (and failed: no package.json); their output, scripted
  const failed = [...(await recordedToolResults("r7_always_allow")).values()].map((text) => ({
    stderr: text.slice("Exit code 254\n".length),
    exitCode: 254,
  }));
  await compareTape(
    "r7_always_allow",
    new ScenarioBuilder()
      .on("Run the tests twice.")
      .usesBash("npm test", { description: "Run tests", ...failed[0] })
      .usesBash("npm test", { description: "Run tests again", ...failed[1] })
      .usesBash("npm run lint", { description: "Lint", ...failed[2] })
      .respond("Done.")
      .build(),
    { permissionMode: "default", maxTurns: 8, canUseTool },
  );
  assert.equal(asked.length, 2, asked.join("\n"));
});

Deno.test("r7 fidelity: an allow that takes the acceptEdits suggestion sets the mode", async () => {
  const { canUseTool, asked } = alwaysAllow();
  await compareTape(
    "r7_accept_edits_suggestion",
    new ScenarioBuilder()
      .on("Edit then write.")
      .usesEdit(`${CWD}/notes.txt`, { oldString: "make", newString: "cmake", originalFile: NOTES })
      .usesWrite(`${CWD}/new.txt`, { content: "x" })
      .respond("Done.")
      .build(),
    { permissionMode: "default", maxTurns: 8, canUseTool },
  );
  assert.equal(asked.length, 1, asked.join("\n"));
});
