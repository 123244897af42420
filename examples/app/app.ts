// A small app on the Claude Agent SDK, as apps are written: it streams the partial text to a
// callback, refuses `rm` in Bash, logs every tool use from a PreToolUse hook, gives Claude an
// in-process MCP tool (add), and reports errors. `app_test.ts` tests it with @x/claude-mock.
import {
  type CanUseTool,
  createSdkMcpServer,
  type HookCallbackMatcher,
  type HookEvent,
  type Options,
  query,
  type SDKMessage,
  tool,
} from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";

/** What a run of the app gives back. */
export interface Answer {
  /** The final text, or the error's text. */
  text: string;
  /** Whether it failed (an error result, or the CLI process failing). */
  failed: boolean;
  /** The tool uses the hook logged ("Bash: ls"). */
  toolLog: string[];
  /** Every message the SDK gave. */
  messages: SDKMessage[];
}

/** The app's permission policy: Bash may run anything but `rm`; everything else is allowed. */
export const canUseTool: CanUseTool = (toolName, input) => {
  const command = String((input as { command?: unknown }).command ?? "");
  if (toolName === "Bash" && /(^|[;&|\s])rm\s/.test(`${command} `)) {
    return Promise.resolve({ behavior: "deny", message: "rm is not allowed here" });
  }
  return Promise.resolve({ behavior: "allow", updatedInput: input });
};

/** The app's hooks: a PreToolUse hook that logs each tool use into `log`. */
export function loggingHooks(log: string[]): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  return {
    PreToolUse: [{
      hooks: [(input) => {
        const { tool_name, tool_input } = input as { tool_name: string; tool_input: unknown };
        const detail = (tool_input as { command?: string; file_path?: string }) ?? {};
        log.push(`${tool_name}: ${detail.command ?? detail.file_path ?? ""}`.trim());
        return Promise.resolve({ continue: true });
      }],
    }],
  };
}

/** The app's in-process MCP server: `calc` with an `add` tool. */
export function calcServer(): ReturnType<typeof createSdkMcpServer> {
  return createSdkMcpServer({
    name: "calc",
    version: "1.0.0",
    tools: [
      tool(
        "add",
        "Add two numbers",
        { a: z.number(), b: z.number() },
        ({ a, b }) => Promise.resolve({ content: [{ type: "text", text: String(a + b) }] }),
      ),
    ],
  });
}

/**
 * Asks Claude; `onText` gets the answer as it streams. `sdkOptions` are passed through (a test
 * gives the mock's `spawnClaudeCodeProcess` here; in production they are empty).
 */
export async function ask(
  prompt: string,
  options: { onText?: (text: string) => void; sdkOptions?: Partial<Options> } = {},
): Promise<Answer> {
  const toolLog: string[] = [];
  const messages: SDKMessage[] = [];
  let text = "";
  let failed = false;
  try {
    for await (
      const message of query({
        prompt,
        options: {
          includePartialMessages: true,
          canUseTool,
          hooks: loggingHooks(toolLog),
          mcpServers: { calc: calcServer() },
          ...options.sdkOptions,
        },
      })
    ) {
      messages.push(message);
      if (message.type === "stream_event") {
        const event = message.event;
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
          options.onText?.(event.delta.text);
        }
      }
      if (message.type === "result") {
        failed = message.is_error;
        text = message.subtype === "success" ? message.result : message.errors.join("\n");
      }
    }
  } catch (error) {
    failed = true;
    text ||= error instanceof Error ? error.message : String(error);
  }
  return { text, failed, toolLog, messages };
}
