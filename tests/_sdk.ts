// Helpers for integration tests that drive the real Agent SDK through the mock.
import {
  createSdkMcpServer,
  type Options,
  query,
  type SDKMessage,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import type { MockTransport } from "../mod.ts";

/** Runs `query()` through `mock` and collects every message and the error thrown, if any. */
export async function runQuery(
  mock: MockTransport,
  prompt: Parameters<typeof query>[0]["prompt"],
  options: Omit<Options, "spawnClaudeCodeProcess"> = {},
): Promise<{ messages: SDKMessage[]; error?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (
      const message of query({
        prompt,
        options: { ...options, spawnClaudeCodeProcess: mock.spawn },
      })
    ) {
      messages.push(message);
    }
    return { messages };
  } catch (error) {
    return { messages, error: error as Error };
  }
}

/** A prompt stream: yields each message after the previous turn's result arrived. */
export function promptStream(
  texts: string[],
  resultSeen: () => Promise<void>,
): AsyncIterable<{
  type: "user";
  session_id: string;
  message: { role: "user"; content: string };
  parent_tool_use_id: null;
}> {
  return (async function* () {
    for (let i = 0; i < texts.length; i++) {
      if (i > 0) await resultSeen();
      yield {
        type: "user" as const,
        session_id: "",
        message: { role: "user" as const, content: texts[i] },
        parent_tool_use_id: null,
      };
    }
  })();
}

/** `type` or `type/subtype` of each message, for order assertions. */
export function kinds(messages: readonly SDKMessage[]): string[] {
  return messages.map((
    m,
  ) => ("subtype" in m && typeof m.subtype === "string" ? `${m.type}/${m.subtype}` : m.type));
}

/**
 * A streaming prompt that yields `texts[0]` at once and each next text when `next()` is
 * called; with `holdOpen`, after the last text it keeps stdin open until `next()` is called
 * once more.
 */
export function gatedPrompt(texts: string[], options: { holdOpen?: boolean } = {}): {
  prompt: AsyncIterable<{
    type: "user";
    message: { role: "user"; content: string };
    parent_tool_use_id: null;
  }>;
  next: () => void;
} {
  const gates: Array<() => void> = [];
  let opened = 0;
  const wait = () =>
    new Promise<void>((resolve) => {
      if (opened > 0) {
        opened--;
        resolve();
      } else gates.push(resolve);
    });
  const next = () => {
    const gate = gates.shift();
    if (gate) gate();
    else opened++;
  };
  const prompt = (async function* () {
    for (let i = 0; i < texts.length; i++) {
      if (i > 0) await wait();
      yield {
        type: "user" as const,
        message: { role: "user" as const, content: texts[i] },
        parent_tool_use_id: null,
      };
    }
    if (options.holdOpen) await wait();
  })();
  return { prompt, next };
}

/** The FakeTime recipe: run the fake clock's timers until `task` settles. */
export async function driveFakeTime(
  fake: { nextAsync(): Promise<number> },
  task: Promise<unknown>,
): Promise<void> {
  let settled = false;
  task.then(() => (settled = true), () => (settled = true));
  while (!settled) {
    if (!(await fake.nextAsync())) await new Promise((r) => queueMicrotask(() => r(undefined)));
  }
}

/**
 * The in-process MCP server the recordings used: `calc` with `add` (a + b, or `answer` when
 * given) and, with `divide`, a `divide` tool that fails on zero.
 */
export function calcServer(
  options: { answer?: string; divide?: boolean } = {},
): ReturnType<typeof createSdkMcpServer> {
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  const add = tool(
    "add",
    "Add two numbers",
    { a: z.number(), b: z.number() },
    ({ a, b }) => Promise.resolve(text(options.answer ?? String(a + b))),
  );
  const divide = tool(
    "divide",
    "Divide",
    { a: z.number(), b: z.number() },
    ({ a, b }) =>
      Promise.resolve(
        b === 0 ? { ...text("division by zero"), isError: true } : text(String(a / b)),
      ),
  );
  return createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: options.divide ? [add, divide] : [add],
  });
}
