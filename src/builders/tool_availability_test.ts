import assert from "node:assert/strict";
import { DEFAULT_TOOLS } from "./inventory.ts";
import { hasTool, noSuchToolError, sessionTools } from "./tool_availability.ts";

Deno.test("sessionTools: the default set, canUseTool's interactive tools, --tools, deny rules", () => {
  assert.deepEqual(sessionTools(), [...DEFAULT_TOOLS]);
  assert.deepEqual(sessionTools({ tools: ["default"] }), [...DEFAULT_TOOLS]);
  const prompted = sessionTools({ canUseTool: true });
  assert.ok(prompted.includes("AskUserQuestion") && prompted.includes("ExitPlanMode"));
  assert.equal(prompted[0], "Task");
  // as recorded: sorted, names the CLI does not offer left out, canUseTool adds nothing
  assert.deepEqual(sessionTools({ tools: ["Read", "Grep", "Bash", "Glob"], canUseTool: true }), [
    "Bash",
    "Glob",
    "Grep",
    "Read",
  ]);
  assert.deepEqual(sessionTools({ tools: ["Read", "Frobnicate", "TodoWrite", "LSP"] }), ["Read"]);
  assert.deepEqual(sessionTools({ tools: [] }), []);
  assert.deepEqual(sessionTools({ tools: ["Read", "Write"], denied: ["Write"] }), ["Read"]);
  const noBash = sessionTools({ denied: ["Bash"] });
  assert.ok(noBash.includes("Glob") && noBash.includes("Grep"));
  assert.ok(!noBash.includes("Bash") && !noBash.includes("Monitor"));
  assert.ok(!sessionTools({ denied: ["Bash", "Grep"] }).includes("Grep"));
  // with --tools, denying Bash brings nothing in
  assert.deepEqual(sessionTools({ tools: ["Bash", "Read"], denied: ["Bash"] }), ["Read"]);
});

Deno.test("hasTool: a tool, or an alias of one (Agent runs Task, KillShell TaskStop)", () => {
  const tools = sessionTools();
  assert.ok(hasTool(tools, "Read") && hasTool(tools, "Agent") && hasTool(tools, "KillShell"));
  assert.ok(!hasTool(tools, "Glob") && !hasTool(tools, "LS"));
  assert.ok(!hasTool(["Read"], "Agent"));
});

Deno.test("noSuchToolError: the CLI's texts for unknown, disabled and Bash-replaced tools", () => {
  const all = sessionTools();
  assert.equal(noSuchToolError("LS", all), "Error: No such tool available: LS");
  assert.equal(
    noSuchToolError("TodoWrite", all),
    "Error: No such tool available: TodoWrite. TodoWrite is disabled for this session, in subagents as well as here.",
  );
  assert.equal(
    noSuchToolError("Grep", all),
    "Error: No such tool available: Grep. Grep is not available in this session \u2014 search file contents with `grep` via the Bash tool instead.",
  );
  assert.equal(
    noSuchToolError("Glob", ["Read"]),
    "Error: No such tool available: Glob. Glob is disabled for this session.",
  );
  assert.equal(
    noSuchToolError("Write", ["Read"]),
    "Error: No such tool available: Write. Write is disabled for this session, in subagents as well as here.",
  );
});
