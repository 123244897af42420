/**
 * What the client (the app, through the SDK) answered to the mock's control requests:
 * permission decisions (`can_use_tool`), hook outputs (`hook_callback`) and in-process MCP
 * results (`mcp_message`), each with the request it answered. `MockTransport`'s
 * `permissionDecisions()`, `hookOutputs()` and `mcpResults()` read them.
 *
 * @module
 */

/** One control request of the mock (as the real CLI sends them) and the client's answer. */
export interface ClientAnswer {
  /** The request id. */
  requestId: string;
  /** The request subtype (`can_use_tool`, `hook_callback`, `mcp_message`, ...). */
  subtype: string;
  /** The request body, as the mock sent it. */
  request: Record<string, unknown>;
  /** A success answer's body (`{}` when it had none); absent for an error answer. */
  response?: Record<string, unknown>;
  /** An error answer's text; absent for a success answer. */
  error?: string;
  /** When the client answered, on the session clock (ms since the epoch). */
  at: number;
}

/** The app's answer to a `can_use_tool` request: its `canUseTool` decision. */
export interface ClientPermissionAnswer extends ClientAnswer {
  /** The tool asked about. */
  toolName: string;
  /** The tool input asked about. */
  input: Record<string, unknown>;
  /** The tool use asked about. */
  toolUseId: string;
  /** `allow` or `deny`; `undefined` for an error answer or a malformed one. */
  behavior: "allow" | "deny" | undefined;
  /** An allow's `updatedInput`, when it gave one. */
  updatedInput?: Record<string, unknown>;
  /** A deny's message. */
  message?: string;
}

/** The app's answer to a `hook_callback` request: its hook's output. */
export interface ClientHookAnswer extends ClientAnswer {
  /** The event (`PreToolUse`, `Stop`, ...). */
  event: string;
  /** The callback id the SDK registered in `initialize`. */
  callbackId: string;
  /** Tool events: the tool's name. */
  toolName?: string;
  /** The tool use id the request carried. */
  toolUseId?: string;
  /** The hook input the mock sent. */
  input: Record<string, unknown>;
  /** The hook's output (the answer's body); `undefined` for an error answer. */
  output: Record<string, unknown> | undefined;
}

/** The app's answer to an `mcp_message` request: its in-process MCP server's reply. */
export interface ClientMcpAnswer extends ClientAnswer {
  /** The server's name. */
  server: string;
  /** The JSON-RPC method (`tools/call`). */
  method: string;
  /** `tools/call`: the tool's name on its server (`add`, not `mcp__calc__add`). */
  tool?: string;
  /** `tools/call`: the arguments. */
  arguments?: unknown;
  /** The JSON-RPC result (for `tools/call`: `{ content, isError? }`), when there is one. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error, when the server answered with one. */
  rpcError?: { code?: number; message?: string; [key: string]: unknown };
  /** Whether the call failed: a JSON-RPC error, `result.isError`, or an error answer. */
  isError: boolean;
}
