// What the engine benchmarks feed a session the way the SDK does: the SDK's spawn arguments and
// environment, and one user line of a turn.

/** One turn's user line, as the SDK writes it. */
export const PROMPT: Uint8Array = new TextEncoder().encode(
  JSON.stringify({
    type: "user",
    message: { role: "user", content: "hello" },
    parent_tool_use_id: null,
    session_id: "",
  }) + "\n",
);

/** The arguments and environment the SDK spawns the CLI with. */
export const SDK: { args: string[]; env: Record<string, string> } = {
  args: ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"],
  env: { CLAUDE_AGENT_SDK_VERSION: "0.3.328", CLAUDE_CODE_ENTRYPOINT: "sdk-ts" },
};
