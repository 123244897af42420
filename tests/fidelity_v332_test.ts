// Fidelity to CLI 2.1.332 (SDK 0.3.332) and what changed since 2.1.328: the recordings
// tests/fixtures/real/v33*_* (FINDINGS_v332.md) replayed through the real SDK of their version,
// the mock impersonating the CLI that SDK bundles.
import assert from "node:assert/strict";
import type { HookCallback, Options } from "@anthropic-ai/claude-agent-sdk";
import { compareTape, readTape, recAllow } from "./_fidelity.ts";
import { MockTransport, ScenarioBuilder } from "../mod.ts";
import { installFakeClaude } from "../cli.ts";

const MARKER = "Hello! The marker says skill-shell-ran.";

/** The scenario of the skill_shell recordings: a project skill with one shell command. */
const skillScenario = () =>
  new ScenarioBuilder({ skills: { greet: { shell: ["echo skill-shell-ran"] } } })
    .on("/greet").respond(MARKER, { outputTokens: 25 }).build();

/** The recordings' hooks: PreSkillShellCommand answers `answer`, PreToolUse lets all pass. */
function skillHooks(answer: "allow" | "deny"): Options["hooks"] {
  const shell: HookCallback = () =>
    Promise.resolve(
      answer === "deny"
        ? {
          hookSpecificOutput: {
            hookEventName: "PreSkillShellCommand",
            permissionDecision: "deny",
            permissionDecisionReason: "No shell in skills.",
          },
        }
        : { continue: true },
    ) as never;
  return {
    PreSkillShellCommand: [{ hooks: [shell] }],
    PreToolUse: [{ hooks: [() => Promise.resolve({ continue: true })] }],
  } as Options["hooks"];
}

for (
  const [tape, env] of [
    ["v332_skill_shell_allow", undefined],
    ["v332_skill_shell_deny", undefined],
    // the same conversation as CLI 2.1.331 and 2.1.328 had it: no hook is asked
    ["v331_skill_shell_deny", { CLAUDE_MOCK_VERSION: "2.1.331" }],
    ["v328_skill_shell_deny", undefined],
  ] as const
) {
  Deno.test(`PreSkillShellCommand as recorded in ${tape}`, async () => {
    const { canUseTool } = recAllow();
    const { ours } = await compareTape(tape, skillScenario(), {
      maxTurns: 2,
      settingSources: ["project"],
      canUseTool,
      hooks: skillHooks(tape.includes("allow") ? "allow" : "deny"),
    }, env ? { env } : {});
    const asked = ours.out.filter((f) =>
      f.type === "control_request" &&
      (f.request as { input?: { hook_event_name?: string } }).input?.hook_event_name ===
        "PreSkillShellCommand"
    );
    assert.equal(asked.length, tape.startsWith("v332") ? 1 : 0);
  });
}

Deno.test("CLI 2.1.332 through SDK 0.3.332: initialize answer, init frame and result as recorded (v332_hello)", async () => {
  const { ours } = await compareTape(
    "v332_hello",
    new ScenarioBuilder().on(/hello/).respond("Hello! How can I help you today?").build(),
    { maxTurns: 1 },
  );
  const tape = await readTape("v332_hello");
  const realInit = tape.lines.find((l) => l.frame.subtype === "init")!.frame;
  const init = ours.out.find((f) => f.subtype === "init")!;
  // every key in the recorded order, the version and capabilities of 2.1.332
  assert.deepEqual(Object.keys(init), Object.keys(realInit));
  assert.equal(init.claude_code_version, "2.1.332");
  assert.deepEqual(init.capabilities, realInit.capabilities);
  const answer = (frames: Array<Record<string, unknown>>) =>
    (frames.find((f) => f.type === "control_response")!.response as {
      response: Record<string, unknown>;
    }).response;
  const realAnswer = answer(tape.lines.map((l) => l.frame));
  const ourAnswer = answer(ours.out);
  assert.deepEqual(Object.keys(ourAnswer), Object.keys(realAnswer));
  for (const key of ["claude_code_version", "capabilities", "sandbox_enabled"]) {
    assert.deepEqual(ourAnswer[key], realAnswer[key], key);
  }
});

/** The CLI version system/init reports to an app of `sdk` that runs the mock through `door`. */
async function versionSeen(
  sdk: "pinned" | "latest",
  door: "in-process" | "binary",
  env: Record<string, string> = {},
): Promise<string> {
  const { query } = sdk === "latest"
    ? await import("sdk-latest")
    : await import("@anthropic-ai/claude-agent-sdk");
  const scenario = new ScenarioBuilder().on("hello").respond("Hi.").build();
  await using fake = door === "binary" ? await installFakeClaude({ scenario }) : undefined;
  const mock = door === "in-process" ? new MockTransport(scenario) : undefined;
  // each SDK's query() writes its version into process.env: leave an earlier one's out
  const { CLAUDE_AGENT_SDK_VERSION: _earlier, ...inherited } = Deno.env.toObject();
  const q = query({
    prompt: "hello",
    options: {
      env: { ...inherited, ...fake?.env, ...env },
      ...(fake ? { pathToClaudeCodeExecutable: fake.path } : mock!.options()),
    },
  });
  let version = "";
  for await (const m of q) {
    if (m.type === "system" && m.subtype === "init") version = m.claude_code_version;
  }
  return version;
}

Deno.test("version awareness: each door impersonates the CLI of the SDK that drives it", async () => {
  for (const door of ["in-process", "binary"] as const) {
    assert.equal(await versionSeen("pinned", door), "2.1.328", door);
    assert.equal(await versionSeen("latest", door), "2.1.332", door);
    // CLAUDE_MOCK_VERSION wins; a newer version than any recorded behaves as the newest
    assert.equal(await versionSeen("pinned", door, { CLAUDE_MOCK_VERSION: "2.1.400" }), "2.1.400");
  }
});

Deno.test("version awareness: run by hand, the binary claims the installed SDK's CLI (its manifest.json)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "claude-mock-sdk-" });
  try {
    const sdk = `${dir}/node_modules/@anthropic-ai/claude-agent-sdk`;
    await Deno.mkdir(sdk, { recursive: true });
    await Deno.writeTextFile(`${sdk}/package.json`, '{"version":"0.3.331"}');
    await Deno.writeTextFile(`${sdk}/manifest.json`, '{"version":"2.1.331"}');
    await using fake = await installFakeClaude();
    // a clean environment: no SDK spawns it
    const run = (env: Record<string, string>) =>
      new Deno.Command(fake.path, {
        args: ["--version"],
        cwd: dir,
        env: { ...fake.env, ...env },
        clearEnv: true,
        stdin: "null",
      }).output().then((o) => new TextDecoder().decode(o.stdout));
    assert.equal(await run({}), "2.1.331 (Claude Code)\n");
    assert.equal(await run({ CLAUDE_MOCK_VERSION: "2.1.328" }), "2.1.328 (Claude Code)\n");
    const bad = await new Deno.Command(fake.path, {
      args: ["--version"],
      cwd: dir,
      env: { ...fake.env, CLAUDE_MOCK_VERSION: "newest" },
      clearEnv: true,
      stdin: "null",
    }).output();
    assert.equal(bad.code, 1);
    assert.match(
      new TextDecoder().decode(bad.stderr),
      /Cannot impersonate CLI version "newest" \(CLAUDE_MOCK_VERSION\): expected a version such as 2\.1\.332/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The answers to the client's requests of `subtype` in `frames`, by request order. */
function answersTo(
  frames: Array<Record<string, unknown>>,
  written: Array<Record<string, unknown>>,
  subtype: string,
): unknown[] {
  const ids = written.filter((f) =>
    f.type === "control_request" && (f.request as { subtype: string }).subtype === subtype
  ).map((f) => f.request_id);
  return ids.map((id) => {
    const answer = frames.find((f) =>
      f.type === "control_response" && (f.response as { request_id: string }).request_id === id
    )!.response as Record<string, unknown>;
    const { request_id: _id, ...rest } = answer;
    return rest;
  });
}

const EXT = {
  type: "stdio" as const,
  command: "/usr/bin/node",
  args: ["/tmp/x"],
  env: { MCP_SDK_DIR: "/tmp/x" },
};

for (const version of ["328", "331", "332"]) {
  Deno.test(`mcp_call as CLI 2.1.${version}: a server the CLI runs, its errors hard or soft`, async () => {
    const name = `v${version}_mcp_ext_call`;
    const { canUseTool } = recAllow();
    const { ours, tape } = await compareTape(
      name,
      new ScenarioBuilder()
        .on("Save the note")
        .usesTogether((t) =>
          t.usesTool("mcp__ext__fail", { note: "buy milk" }, {
            result: "disk quota exceeded",
            isError: true,
          }).usesTool("mcp__ext__echo", { text: "hi" }, { result: "echo: hi" })
        )
        .respond("The save failed; the echo worked.", { outputTokens: 25 })
        .build(),
      {
        maxTurns: 3,
        mcpServers: { ext: EXT },
        canUseTool,
        turns: [
          "Save the note 'buy milk' and echo hi.",
          async (q: unknown) => {
            const raw = q as unknown as { request(b: object): Promise<unknown> };
            for (
              const body of [
                { tool: "mcp__ext__echo", arguments: { text: "hi" } },
                { tool: "mcp__ext__fail", arguments: { note: "x" } },
                { tool: "mcp__ext__fail", arguments: { note: "x" }, soft_error_result: true },
                {
                  tool: "mcp__ext__fail",
                  arguments: { note: "x" },
                  soft_error_result: true,
                  result_not_for_model: true,
                },
                { tool: "mcp__ext__echo", arguments: { text: "hi" }, result_not_for_model: true },
                { tool: "mcp__ext__nothing", arguments: {} },
                { tool: "mcp__nowhere__x", arguments: {} },
                { tool: "mcp__ext__echo", arguments: { text: 5 } },
              ]
            ) await raw.request({ subtype: "mcp_call", ...body }).catch(() => undefined);
          },
        ],
      } as never,
      {
        // what the server itself says (its version, its tools, a deferred tool's schema in an
        // error) the mock cannot know: an app scripts the results; the rest is compared
        skipValues: ["user", "control_response"],
        omitRequests: ["mcp_status", "get_context_usage"],
      },
    );
    const real = tape.lines.map((l) => l.frame);
    const realIn = tape.lines.filter((l) => l.dir === "sdk->cli").map((l) => l.frame);
    // an unknown tool's and bad arguments' answers come from the server (MCP error -32602)
    const calls = (
      frames: Array<Record<string, unknown>>,
      written: Array<Record<string, unknown>>,
    ) =>
      answersTo(frames, written, "mcp_call").slice(0, 5).concat(
        answersTo(frames, written, "mcp_call").slice(6, 7),
      );
    assert.deepEqual(
      calls(ours.out as never, ours.written as never),
      calls(real as never, realIn as never),
    );
  });
}

Deno.test("mcp_call's refusals as CLI 2.1.332: an SDK server, a name that is not an MCP tool's, no tool", async () => {
  const { createSdkMcpServer, tool } = await import("sdk-latest");
  const { z } = await import("zod");
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool(
        "add",
        "Add",
        { a: z.number(), b: z.number() },
        ({ a, b }) =>
          Promise.resolve({ content: [{ type: "text" as const, text: String(a + b) }] }),
      ),
    ],
  });
  await compareTape(
    "v332_mcp_call_sdk",
    new ScenarioBuilder().on("hello").respond("Hello!", { outputTokens: 25 }).build(),
    {
      maxTurns: 1,
      mcpServers: { calc } as never,
      turns: [
        "hello",
        async (q) => {
          const raw = q as unknown as { request(b: object): Promise<unknown> };
          for (
            const body of [
              { subtype: "mcp_call", tool: "mcp__calc__add", arguments: { a: 1, b: 2 } },
              { subtype: "mcp_call", tool: "not_mcp", arguments: {} },
              { subtype: "mcp_call" },
            ]
          ) await raw.request(body).catch(() => undefined);
        },
      ],
    },
  );
});

Deno.test("MCP servers delivered in initialize (mcpServersDelivery): applied, listed, their tools used", async () => {
  for (const version of ["328", "332"]) {
    const { canUseTool } = recAllow();
    await compareTape(
      `v${version}_mcp_ext_initialize`,
      new ScenarioBuilder().on("Echo hi.").usesTool("mcp__ext__echo", { text: "hi" }, {
        result: "echo: hi",
      }).respond("Echoed.", { outputTokens: 25 }).build(),
      { maxTurns: 3, mcpServers: { ext: EXT }, mcpServersDelivery: "initialize", canUseTool },
      { skipValues: ["user"], omitRequests: ["mcp_status"] },
    );
  }
});

Deno.test("settings and disallowed tools delivered in initialize: applied and said so", async () => {
  for (const version of ["328", "332"]) {
    const { ours } = await compareTape(
      `v${version}_settings_initialize`,
      new ScenarioBuilder().on("hello").respond("Hello!", { outputTokens: 25 }).build(),
      {
        maxTurns: 1,
        settings: { permissions: { ask: ["Read"] } },
        settingsDelivery: "initialize",
        disallowedTools: ["WebFetch"],
        disallowedToolsDelivery: "initialize",
      } as never,
    );
    const init = ours.out.find((f) => f.subtype === "init")!;
    assert.equal((init.tools as string[]).includes("WebFetch"), false);
  }
});
