// The sample app of the runner projects: it imports query() from the Agent SDK itself and
// takes no options, as apps are written. The tests in vitest/, jest/ and node/ test it
// unchanged: only the runner's setup routes its import of the SDK to the mock.
import { query } from "@anthropic-ai/claude-agent-sdk";

/** Asks Claude `question`; resolves with the answer, or rejects with what went wrong. */
export async function ask(question) {
  for await (const message of query({ prompt: question })) {
    if (message.type !== "result") continue;
    if (message.subtype !== "success" || message.is_error) {
      throw new Error(`Claude failed (${message.subtype}): ${message.result ?? ""}`);
    }
    return message.result;
  }
  throw new Error("Claude gave no result");
}
