/**
 * How `MockTransport` learns the client's answers: it keeps the control requests a session
 * writes (read off its stdout as the client reads it) and pairs them with the answers in
 * the client's write log.
 *
 * @module
 * @internal
 */

import type { WriteEntry } from "../session/write_log.ts";
import type { Session } from "../session/session.ts";
import { isObject } from "../wire/frame.ts";
import type {
  ClientAnswer,
  ClientHookAnswer,
  ClientMcpAnswer,
  ClientPermissionAnswer,
} from "./client_answers.ts";

/**
 * Pairs the control requests a session wrote to its client (the session keeps them) with the
 * answers in the client's write log.
 *
 * @internal
 */
export class ClientAnswerLog {
  #session?: Session;

  /** The session whose requests are paired (set when it starts). */
  attach(session: Session): void {
    this.#session = session;
  }

  get #requests(): ReadonlyMap<string, Record<string, unknown>> {
    return this.#session?.sentRequests() ?? new Map();
  }

  /** Every answered request of `subtype` (all when omitted), in the order of the answers. */
  answers(writes: readonly WriteEntry[], subtype?: string): ClientAnswer[] {
    const out: ClientAnswer[] = [];
    const seen = new Set<string>();
    for (const entry of writes) {
      const frame = entry.frame;
      if (frame?.type !== "control_response" || !isObject(frame.response)) continue;
      const response = frame.response;
      const id = response.request_id;
      if (typeof id !== "string" || seen.has(id)) continue;
      const request = this.#requests.get(id);
      if (!request || (subtype !== undefined && request.subtype !== subtype)) continue;
      seen.add(id);
      const answer: ClientAnswer = {
        requestId: id,
        subtype: String(request.subtype),
        request,
        at: entry.at,
      };
      if (response.subtype === "error") answer.error = String(response.error ?? "");
      else answer.response = isObject(response.response) ? response.response : {};
      out.push(answer);
    }
    return out;
  }

  /** The `can_use_tool` answers. */
  permissionDecisions(writes: readonly WriteEntry[]): ClientPermissionAnswer[] {
    return this.answers(writes, "can_use_tool").map((answer) => {
      const { request, response } = answer;
      const behavior = response?.behavior;
      return {
        ...answer,
        toolName: String(request.tool_name ?? ""),
        input: isObject(request.input) ? request.input : {},
        toolUseId: String(request.tool_use_id ?? ""),
        behavior: behavior === "allow" || behavior === "deny" ? behavior : undefined,
        ...(isObject(response?.updatedInput) ? { updatedInput: response.updatedInput } : {}),
        ...(typeof response?.message === "string" ? { message: response.message } : {}),
      };
    });
  }

  /** The `hook_callback` answers. */
  hookOutputs(writes: readonly WriteEntry[]): ClientHookAnswer[] {
    return this.answers(writes, "hook_callback").map((answer) => {
      const request = answer.request;
      const input = isObject(request.input) ? request.input : {};
      return {
        ...answer,
        event: String(input.hook_event_name ?? ""),
        callbackId: String(request.callback_id ?? ""),
        ...(typeof input.tool_name === "string" ? { toolName: input.tool_name } : {}),
        ...(typeof request.tool_use_id === "string" ? { toolUseId: request.tool_use_id } : {}),
        input,
        output: answer.response,
      };
    });
  }

  /** The `mcp_message` answers. */
  mcpResults(writes: readonly WriteEntry[]): ClientMcpAnswer[] {
    return this.answers(writes, "mcp_message").map((answer) => {
      const request = answer.request;
      const message = isObject(request.message) ? request.message : {};
      const params = isObject(message.params) ? message.params : {};
      const reply = isObject(answer.response?.mcp_response) ? answer.response.mcp_response : {};
      const result = isObject(reply.result) ? reply.result : undefined;
      const rpcError = isObject(reply.error) ? reply.error : undefined;
      const call = message.method === "tools/call";
      return {
        ...answer,
        server: String(request.server_name ?? ""),
        method: String(message.method ?? ""),
        ...(call && typeof params.name === "string" ? { tool: params.name } : {}),
        ...(call && "arguments" in params ? { arguments: params.arguments } : {}),
        ...(result ? { result } : {}),
        ...(rpcError ? { rpcError: rpcError as ClientMcpAnswer["rpcError"] } : {}),
        isError: answer.error !== undefined || rpcError !== undefined || result?.isError === true,
      };
    });
  }
}
