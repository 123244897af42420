/**
 * Structured output as the real CLI 2.1.328 gives it (`--json-schema`, the SDK's
 * `outputFormat`): the StructuredOutput tool checks the model's value
 * against the schema, a value that fits ends the turn with `structured_output`, the fifth that
 * does not ends it with `error_max_structured_output_retries`, and a reply without the tool
 * gets one synthetic request for it.
 *
 * @module
 */

import { userText } from "../builders/user.ts";
import type { ScriptedToolCall } from "../scenario/step.ts";
import type { Engine } from "./engine.ts";
import { sendResult } from "./turn_result.ts";
import type { TurnState } from "./turn_state.ts";

/** The tool a structured output (`--json-schema`) is given through. */
export const STRUCTURED_OUTPUT = "StructuredOutput";

/** How many invalid structured outputs end the turn (the real CLI 2.1.328 stops at the fifth). */
const STRUCTURED_ATTEMPTS = 5;

/**
 * Runs the StructuredOutput tool: its input checked against the schema, as the real CLI 2.1.328
 * checks it. A fit is kept for the turn's result; a misfit is an error result the
 * model can retry, 5 times.
 */
export async function structuredOutput(
  engine: Engine,
  input: Record<string, unknown>,
  turn: TurnState,
): Promise<ScriptedToolCall["result"]> {
  // the checker loads with the first structured output (the binary's start-up does not carry it)
  const { schemaError } = await import("./schema_error.ts");
  const problem = schemaError(input, engine.jsonSchema);
  if (problem === undefined) {
    turn.structured = { value: input };
    const text = "Structured output provided successfully";
    return { content: text, isError: false, toolUseResult: text };
  }
  const failures =
    (turn.structured && "failures" in turn.structured ? turn.structured.failures : 0) + 1;
  const error = `Output does not match required schema: ${problem}`;
  turn.structured = { failures, lastError: error };
  return { content: error, isError: true, toolUseResult: `Error: ${error}` };
}

/**
 * After a message's tools ran: a structured output that fit ends the turn with it; the
 * fifth misfit ends it with `error_max_structured_output_retries`. Resolves with whether the
 * turn ended.
 */
export async function settleStructuredOutput(engine: Engine, turn: TurnState): Promise<boolean> {
  const state = turn.structured;
  if (!state || turn.resultSent) return false;
  if ("value" in state) {
    await sendResult(engine, turn, {
      result: JSON.stringify(state.value),
      stopReason: "tool_use",
    }, { structuredOutput: state.value });
  } else if (state.failures >= STRUCTURED_ATTEMPTS) {
    await sendResult(engine, turn, {
      subtype: "error_max_structured_output_retries",
      errors: [
        `Failed to provide valid structured output after ${STRUCTURED_ATTEMPTS} attempts \u2014 last StructuredOutput error: ${state.lastError}`,
      ],
      stopReason: "tool_use",
    });
  } else return false;
  turn.stopped = true;
  return true;
}

/** What the CLI says when a reply under a schema did not use the StructuredOutput tool. */
const STRUCTURED_OUTPUT_REQUEST =
  "[structured-output-enforce] You MUST call the StructuredOutput tool to complete this request. Call this tool now.";

/**
 * Before a message under a schema: if the last reply used no tool, the CLI's one request for
 * the StructuredOutput tool, a synthetic user message; after it, a reply without the tool ends
 * the turn as it is (as the real CLI 2.1.328 does).
 */
export async function requestStructuredOutput(engine: Engine, turn: TurnState): Promise<void> {
  if (engine.jsonSchema === undefined || !turn.textOnly || turn.enforced) return;
  turn.enforced = true;
  turn.userMessages++;
  await engine.send({
    frame: { ...userText(engine.ctx, STRUCTURED_OUTPUT_REQUEST), isSynthetic: true },
    delay: engine.delayFor({ type: "user" }, turn),
  });
}
