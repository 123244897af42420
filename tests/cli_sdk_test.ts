// The real SDK through `pathToClaudeCodeExecutable` (the fake `claude` as a subprocess) against
// the in-process mock: the same app messages with permissions, hooks and MCP, and an interrupt.
import assert from "node:assert/strict";
import {
  createSdkMcpServer,
  type Options,
  query,
  type SDKMessage,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { installFakeClaude } from "../cli.ts";
import { MockTransport, type Scenario, ScenarioBuilder } from "../mod.ts";

function comparable(messages: SDKMessage[]): unknown[] {
  return messages.map((m) => {
    const { duration_ms: _d, duration_api_ms: _a, ...rest } = m as Record<string, unknown>;
    return rest;
  });
}

async function bothSeams(
  scenario: Scenario,
  prompt: string,
  options: Options,
  drive?: (q: ReturnType<typeof query>, m: SDKMessage) => Promise<void>,
) {
  const run = async (opts: Options) => {
    const messages: SDKMessage[] = [];
    let error: Error | undefined;
    try {
      const q = query({ prompt, options: { ...options, ...opts } });
      for await (const m of q) {
        messages.push(m);
        await drive?.(q, m);
      }
    } catch (e) {
      error = e as Error;
    }
    return { messages, error };
  };
  const mock = new MockTransport(scenario);
  const inProcess = await run({ spawnClaudeCodeProcess: mock.spawn });
  await using fake = await installFakeClaude({ scenario });
  const subprocess = await run({
    pathToClaudeCodeExecutable: fake.path,
    env: { ...Deno.env.toObject(), ...fake.env },
  });
  assert.deepEqual(comparable(subprocess.messages), comparable(inProcess.messages));
  assert.equal(subprocess.error?.message, inProcess.error?.message);
  return subprocess;
}

Deno.test("cli + SDK: the same app messages through pathToClaudeCodeExecutable (permissions, hooks, MCP)", async () => {
  const calc = createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool(
        "add",
        "Add",
        { a: z.number(), b: z.number() },
        (a) => Promise.resolve({ content: [{ type: "text" as const, text: String(a.a + a.b) }] }),
      ),
    ],
  });
  const hooked: string[] = [];
  const scenario = new ScenarioBuilder({ seed: 9, cwd: "/home/user/project" })
    .on("work")
    .usesBash("rm -rf build", { description: "Clean" })
    .usesTool("mcp__calc__add", { a: 2, b: 3 })
    .respond("Done: 5.")
    .build();
  const { messages, error } = await bothSeams(scenario, "work", {
    mcpServers: { calc },
    canUseTool: (name, input) =>
      Promise.resolve(
        name === "Bash"
          ? { behavior: "deny", message: "no rm" }
          : { behavior: "allow", updatedInput: input },
      ),
    hooks: {
      PreToolUse: [{
        hooks: [(input) => {
          hooked.push((input as { tool_name: string }).tool_name);
          return Promise.resolve({});
        }],
      }],
    },
  });
  assert.equal(error, undefined);
  assert.equal((messages.at(-1) as { result: string }).result, "Done: 5.");
  assert.deepEqual(
    hooked,
    ["Bash", "mcp__calc__add", "Bash", "mcp__calc__add"],
    "hooks ran in both seams",
  );
});

Deno.test("cli + SDK: an interrupt through pathToClaudeCodeExecutable", async () => {
  const scenario = new ScenarioBuilder({ seed: 4, cwd: "/home/user/project" })
    .on("long").usesBash("make", { description: "Build" }).respond("Built.").build();
  const { messages } = await bothSeams(scenario, "long", {
    canUseTool: () => new Promise(() => {}),
  }, async (q, m) => {
    if (m.type === "assistant") await q.interrupt();
  });
  const result = messages.at(-1) as { subtype: string };
  assert.equal(result.subtype, "error_during_execution");
});
