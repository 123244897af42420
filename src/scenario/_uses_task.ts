/**
 * The tool call `usesTask` makes: the Agent tool use and its subagent's own tool uses (those
 * its `tools` builder collected). Internal.
 *
 * @module
 */

import type { BuildContext } from "../builders/build_context.ts";
import { taskTool } from "../builders/tools.ts";
import { kindOf } from "../wire/_kind_of.ts";
import type { ErrorClass } from "./_checks.ts";
import type { ToolCallSpec } from "./_file_tool_calls.ts";
import type { ScriptedToolCall, Step } from "./step.ts";
import type { TaskOptions } from "./exchange_options.ts";

/** How a builder fails: the error class and the problem (the builder adds where). */
type Fail = (kind: ErrorClass, problem: string) => never;

/** `usesTask`'s `options.tools`, checked: a function that adds the subagent's tool uses. */
export function checkSubagentTools<T>(tools: T, fail: Fail): T {
  if (typeof tools !== "function") {
    fail(
      TypeError,
      `usesTask options.tools must be a function that adds the subagent's tool uses, got ${
        kindOf(tools)
      }`,
    );
  }
  return tools;
}

/**
 * The Agent tool call of `usesTask` (its form for `scenarioToJSON` with the subagent's steps),
 * the subagent's tool uses made in the same context.
 */
export function taskCallSpec(
  description: string,
  options: Omit<TaskOptions<never>, "tools">,
  steps: readonly Step[],
  fail: Fail,
): ToolCallSpec {
  const task = {
    prompt: options.prompt,
    result: options.result,
    ...(options.subagentType !== undefined ? { subagentType: options.subagentType } : {}),
    ...(options.runInBackground !== undefined ? { runInBackground: options.runInBackground } : {}),
  };
  const calls = steps.flatMap((step) => {
    const parts = step.kind === "message" ? step.parts : [];
    const fns = parts.filter((p) => typeof p === "function");
    if (fns.length === 0) {
      fail(
        TypeError,
        `usesTask options.tools takes only uses* tool helpers, got a '${step.kind}' step`,
      );
    }
    return fns as Array<(ctx: BuildContext) => ScriptedToolCall>;
  });
  return {
    make: (ctx) =>
      taskTool(ctx, description, {
        ...task,
        ...(calls.length > 0 ? { tools: calls.map((call) => call(ctx)) } : {}),
      }),
    form: { task: { description, ...task, ...(steps.length > 0 ? { tools: [...steps] } : {}) } },
  };
}
