/**
 * Parts of `HookRecorder`: the recording wrapper around a hook callback (scripted or the
 * app's own), and the walk over an app's `hooks` option that `HookRecorder.spy` wraps.
 *
 * @module
 * @internal
 */

import { show } from "../wire/_show.ts";
import type {
  HookCallbackFunction,
  HookCallbackInput,
  HookEventName,
  HookInvocation,
} from "./hook_types.ts";

/**
 * The `hooks` option of an app, as `HookRecorder.spy` takes it: any callbacks (the SDK's
 * own `HookCallback` types fit), matcher entries with any extra fields.
 */
export type SpiedHooks = {
  readonly [event: string]:
    | ReadonlyArray<{
      readonly matcher?: string;
      readonly hooks: ReadonlyArray<(...args: never[]) => unknown>;
      readonly timeout?: number;
    }>
    | undefined;
};

/** A matcher entry of a recorder: its callbacks, and the app's other fields (spies). */
export interface RecorderEntry {
  /** The event. */
  event: HookEventName;
  /** The matcher string. */
  matcher: string | undefined;
  /** Timeout in seconds. */
  timeout: number | undefined;
  /** The (recording) callbacks. */
  callbacks: HookCallbackFunction[];
  /** Other fields of the app's entry, kept as they were. */
  rest?: Record<string, unknown>;
}

/** Where a recording callback keeps its records. */
export interface RecordingTarget {
  /** The event the callback is registered for. */
  event: HookEventName;
  /** Its matcher. */
  matcher: string | undefined;
  /** For error messages. */
  where: string;
  /** The recorder's clock. */
  now: () => number;
  /** Keeps a record (pushed when the call starts, completed when it settles). */
  push: (record: HookInvocation) => void;
}

/** A hook callback that records each call of `answer`: its input, its output or its error. */
export function recordingHook(
  target: RecordingTarget,
  answer: (
    input: HookCallbackInput,
    toolUseID: string | undefined,
    options: { signal: AbortSignal },
  ) => Promise<unknown>,
): HookCallbackFunction {
  return async (input, toolUseID, options) => {
    if (typeof input !== "object" || input === null) {
      throw new TypeError(`${target.where} callback: input must be an object, got ${show(input)}`);
    }
    const toolUseId = typeof toolUseID === "string"
      ? toolUseID
      : typeof input.tool_use_id === "string"
      ? input.tool_use_id
      : undefined;
    const record: HookInvocation = {
      event: target.event,
      matcher: target.matcher,
      ...(typeof input.tool_name === "string" ? { toolName: input.tool_name } : {}),
      ...(toolUseId !== undefined ? { toolUseId } : {}),
      input,
      output: undefined,
      at: target.now(),
    };
    target.push(record);
    try {
      const output = await answer(input, toolUseID, options);
      record.output = output as HookInvocation["output"];
      return output as NonNullable<HookInvocation["output"]>;
    } catch (error) {
      record.error = error;
      throw error;
    }
  };
}

/**
 * The entries of an app's `hooks` option with every callback wrapped by `wrap`, checked
 * (a bad shape is a TypeError naming its path); entries keep their fields and order.
 */
export function spyEntries(
  hooks: unknown,
  where: string,
  wrap: (
    event: HookEventName,
    matcher: string | undefined,
    callback: HookCallbackFunction,
  ) => HookCallbackFunction,
): RecorderEntry[] {
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    throw new TypeError(
      `${where}: hooks must be the app's hooks option ({ PreToolUse: [{ matcher, hooks: [...] }], ... }), got ${
        show(hooks)
      }`,
    );
  }
  const entries: RecorderEntry[] = [];
  for (const [event, list] of Object.entries(hooks)) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      throw new TypeError(
        `${where}: hooks.${event} must be an array of matcher entries, got ${show(list)}`,
      );
    }
    list.forEach((entry: unknown, i) => {
      const path = `hooks.${event}[${i}]`;
      if (
        typeof entry !== "object" || entry === null ||
        !Array.isArray((entry as { hooks?: unknown }).hooks)
      ) {
        throw new TypeError(
          `${where}: ${path} must be { matcher?, hooks: [callbacks] }, got ${show(entry)}`,
        );
      }
      const { matcher, hooks: callbacks, timeout, ...rest } = entry as Record<string, unknown> & {
        hooks: unknown[];
      };
      if (matcher !== undefined && typeof matcher !== "string") {
        throw new TypeError(`${where}: ${path}.matcher must be a string, got ${show(matcher)}`);
      }
      const wrapped = callbacks.map((callback, j) => {
        if (typeof callback !== "function") {
          throw new TypeError(
            `${where}: ${path}.hooks[${j}] must be a function, got ${show(callback)}`,
          );
        }
        return wrap(event as HookEventName, matcher, callback as HookCallbackFunction);
      });
      entries.push({
        event: event as HookEventName,
        matcher,
        timeout: timeout as number | undefined,
        callbacks: wrapped,
        ...(Object.keys(rest).length > 0 ? { rest } : {}),
      });
    });
  }
  return entries;
}
