// The Agent SDK as the tests see it: deno.test.json maps "@anthropic-ai/claude-agent-sdk" to
// this file (and this file's own import of it to the real package), so the app's query()
// runs against the mock a test activates with mockClaude().
import * as sdk from "@anthropic-ai/claude-agent-sdk";
import { wrapClaudeSdk } from "@x/claude-mock";

export * from "@anthropic-ai/claude-agent-sdk";
export const { query, startup, prewarm } = wrapClaudeSdk(sdk);
