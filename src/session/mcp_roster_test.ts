import assert from "node:assert/strict";
import { COMMAND_NOT_FOUND, McpRoster, NO_ARGS, shownConfig } from "./mcp_roster.ts";
import { ControlError } from "./control_channel.ts";

// what the real claude 2.1.332 answers (tests/fixtures/real/FINDINGS_mcp.md)
const flag = JSON.stringify({
  mcpServers: {
    ext: { command: "node", args: ["s.mjs"], env: { TOKEN: "x" } },
    gone: { command: "no-such" },
    calc: { type: "sdk", name: "calc" },
  },
});
const initialize = { sdkMcpServers: ["calc"] };
const commandCheck = (command: string) => command === "no-such" ? "missing" : "found" as const;
const statuses = (r: McpRoster) => r.entries.map((e) => `${e.name}:${e.status}`);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ControlError);
    return error.message;
  }
  return undefined;
};

Deno.test("McpRoster: the servers the CLI runs, then the SDK's; a command not found failed", () => {
  const roster = new McpRoster([flag], { initialize, commandCheck });
  assert.deepEqual(statuses(roster), ["ext:connected", "gone:failed", "calc:connected"]);
  assert.equal(roster.find("gone")?.error, COMMAND_NOT_FOUND);
  assert.deepEqual(shownConfig(roster.find("ext")!), {
    type: "stdio",
    command: "node",
    args: ["s.mjs"],
  });
  assert.deepEqual(shownConfig(roster.find("gone")!), {
    type: "stdio",
    command: "no-such",
    args: [],
  });
});

Deno.test("McpRoster: toggle and reconnect, their refusals, a disabled server without its error", () => {
  const roster = new McpRoster([flag], { initialize, commandCheck });
  assert.equal(refusal(() => roster.toggle("nope", false)), "Server not found: nope");
  assert.equal(refusal(() => roster.reconnect("nope")), "Server not found: nope");
  assert.equal(
    refusal(() => roster.reconnect("calc")),
    "SDK servers should be handled in print.ts",
  );
  assert.equal(refusal(() => roster.reconnect("gone")), COMMAND_NOT_FOUND);
  const before = roster.changes;
  roster.toggle("gone", false);
  roster.toggle("calc", false);
  assert.ok(roster.changes > before);
  assert.equal(roster.find("gone")?.error, undefined);
  assert.deepEqual(statuses(roster), ["ext:connected", "gone:disabled", "calc:disabled"]);
  assert.equal(roster.usable("calc"), false);
  roster.toggle("calc", true);
  roster.toggle("gone", true);
  assert.deepEqual(statuses(roster), ["ext:connected", "gone:failed", "calc:connected"]);
});

Deno.test("McpRoster.set: replaces the SDK's and the set servers; a named command-line server becomes the calls'", () => {
  const roster = new McpRoster([flag], { initialize, commandCheck });
  assert.deepEqual(
    roster.set({
      ext2: { command: "node", args: [] },
      noargs: { command: "node" },
      calc2: { type: "sdk", name: "calc2" },
    }),
    { added: ["calc2", "ext2", "noargs"], removed: ["calc"], errors: { noargs: NO_ARGS } },
  );
  assert.deepEqual(statuses(roster), [
    "ext:connected",
    "gone:failed",
    "ext2:connected",
    "noargs:failed",
    "calc2:pending",
  ]);
  // the same config again: neither added nor removed
  roster.toggle("ext", false);
  assert.deepEqual(
    roster.set({ ext2: { command: "node", args: [] }, ext: { command: "node" } }),
    {
      added: ["ext"],
      removed: ["calc2", "noargs"],
      errors: { ext: "Server status: disabled" },
    },
  );
  assert.deepEqual(roster.set({}), { added: [], removed: ["ext", "ext2"], errors: {} });
  assert.deepEqual(statuses(roster), ["gone:failed"]);
});

Deno.test("McpRoster: the project's .mcp.json first, a name the command line gives again as its", () => {
  const project = JSON.stringify({
    mcpServers: { proj: { command: "no-such" }, both: { command: "no-such" } },
  });
  const roster = new McpRoster([flag], { initialize, commandCheck, project });
  assert.deepEqual(
    roster.entries.map((e) => `${e.name}:${e.source}`),
    ["proj:project", "both:project", "ext:dynamic", "gone:dynamic", "calc:sdk"],
  );
  assert.equal(roster.find("proj")?.error, 'Executable not found in $PATH: "no-such"');
  assert.deepEqual(shownConfig(roster.find("proj")!), {
    type: "stdio",
    command: "no-such",
    args: [],
  });
  const again = new McpRoster([JSON.stringify({ mcpServers: { both: { command: "node" } } })], {
    project,
  });
  assert.deepEqual(again.entries.map((e) => `${e.name}:${e.source}:${e.status}`), [
    "proj:project:connected",
    "both:dynamic:connected",
  ]);
  // text that is not JSON configures nothing
  assert.deepEqual(new McpRoster(undefined, { project: "{nope" }).entries, []);
});

Deno.test("McpRoster: a command path that is not there, or cannot be run, as the real CLI says it", () => {
  const states: Record<string, "missing" | "denied"> = { "/no/bin": "missing", "/tmp": "denied" };
  const commandCheck = (command: string) => states[command] ?? "found";
  const servers = { abs: { command: "/no/bin", args: [] }, dir: { command: "/tmp", args: [] } };
  const json = JSON.stringify({ mcpServers: servers });
  const errors = (r: McpRoster) => r.entries.map((e) => `${e.name} ${e.source}: ${e.error}`);
  assert.deepEqual(errors(new McpRoster([json], { commandCheck })), [
    "abs dynamic: ENOENT: no such file or directory, posix_spawn 'stdio'",
    "dir dynamic: EACCES: permission denied, posix_spawn 'stdio'",
  ]);
  assert.deepEqual(errors(new McpRoster(undefined, { commandCheck, project: json })), [
    "abs project: ENOENT: no such file or directory, posix_spawn '/no/bin'",
    "dir project: EACCES: permission denied, posix_spawn '/tmp'",
  ]);
});

Deno.test("McpRoster: servers delivered in initialize are the session's own, args [] shown", () => {
  const roster = new McpRoster(undefined, {
    initialize: { mcpServers: { gone: { command: "no-such" } } },
    commandCheck,
  });
  assert.deepEqual(shownConfig(roster.find("gone")!), {
    type: "stdio",
    command: "no-such",
    args: [],
  });
  assert.deepEqual(roster.set({}), { added: [], removed: [], errors: {} });
  assert.deepEqual(statuses(roster), ["gone:failed"]);
});
