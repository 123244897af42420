// Helpers for integration tests that drive the real Agent SDK through the mock.
import { type Options, query, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
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
