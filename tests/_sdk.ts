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
