// Fidelity round eight: permission modes with the same five tool uses in one message
// (Read, Write, Bash touch, Bash npm test, WebFetch). Recordings of the real CLI 2.1.328 in
// tests/fixtures/real/r8_mode_*, replayed through the real SDK and the mock, both directions
// compared frame by frame.
import assert from "node:assert/strict";
import type { PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import { ScenarioBuilder } from "../mod.ts";
import { compareTape, recAllow, recordedToolResults } from "./_fidelity.ts";

const CWD = "/home/user/project";
const NOTES =
  "Project notes\n=============\n1. The build uses make.\n2. Tests live in tests/.\n3. Release on Fridays.\n";

// r8_mode_plan is kept as data only: offline, plan mode refused Bash and WebFetch because the
// auto mode's server-side check cannot run through a local API (its informational says so),
// which is not what a session against the real API does.
for (const mode of ["dontAsk", "acceptEdits"] as const) {
  Deno.test(`r8 fidelity: permission mode ${mode}`, async () => {
    const name = `r8_mode_${mode}`;
    const real = await recordedToolResults(name);
    const npm = [...real.values()].find((t) => t.startsWith("Exit code 254"));
    const fetch = [...real.values()].find((t) => t.startsWith("Unable to verify"));
    const { canUseTool, calls } = recAllow();
    await compareTape(
      name,
      new ScenarioBuilder()
        .on("Do five things.")
        .usesTogether((t) =>
          t.usesRead(`${CWD}/notes.txt`, { content: NOTES })
            .usesWrite(`${CWD}/new.txt`, { content: "x" })
            .usesBash("touch a.txt", { description: "Touch" })
            .usesBash("npm test", {
              description: "Test",
              ...(npm ? { stderr: npm.slice("Exit code 254\n".length), exitCode: 254 } : {}),
            })
            .usesTool("WebFetch", { url: "https://example.com", prompt: "x" }, {
              result: fetch ?? "",
              isError: fetch !== undefined,
            })
        )
        .respond("Done.")
        .build(),
      { permissionMode: mode as PermissionMode, maxTurns: 3, canUseTool },
    );
    const asked = calls.map((c) => c.toolName);
    assert.deepEqual(
      asked,
      { dontAsk: [], acceptEdits: ["Bash", "WebFetch"] }[mode],
    );
  });
}
