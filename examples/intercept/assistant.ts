// A small app on the Claude Agent SDK as apps are written: it imports query() itself and
// takes no options, so nothing in it can be swapped for a test. assistant_test.ts tests it
// unchanged: deno.test.json routes its import of the SDK to claude_sdk.ts.
import { query } from "@anthropic-ai/claude-agent-sdk";

/** Asks Claude `question`; resolves with the answer, or rejects with what went wrong. */
export async function ask(question: string): Promise<string> {
  for await (const message of query({ prompt: question })) {
    if (message.type !== "result") continue;
    if (message.subtype !== "success" || message.is_error) {
      throw new Error(
        `Claude failed (${message.subtype}): ${"result" in message ? message.result : ""}`,
      );
    }
    return message.result;
  }
  throw new Error("Claude gave no result");
}
