import assert from "node:assert/strict";
import { text, thinking } from "../builders/assistant.ts";
import { createBuildContext } from "../builders/build_context.ts";
import { readTool } from "../builders/tools.ts";
import { Pcg32, randomSeeded } from "../random/pcg32.ts";
import { getDefaults, setDefaults } from "../timing/defaults.ts";
import { timingProfile } from "../timing/timing_profile.ts";
import { any, exact } from "./matcher.ts";
import { decidePermission, rulesFromSettings } from "./permission_rules.ts";
import type { Scenario } from "./scenario.ts";
import { ScenarioBuilder } from "./scenario_builder.ts";
import type { Step } from "./step.ts";
import { SCENARIO_LIMITS } from "./scenario_limits.ts";
import { validateScenario } from "./validate_scenario.ts";
import { validateStep } from "./validate_step.ts";
import { validateTiming } from "./validate_timing.ts";

type ErrorClass = TypeErrorConstructor | RangeErrorConstructor;

interface BadCase {
  /** What is wrong. */
  name: string;
  /** Throws the error. */
  run: () => unknown;
  /** Its class. */
  error: ErrorClass;
  /** The whole message, or a pattern for it. */
  message: string | RegExp;
}

function expectError(run: () => unknown, error: ErrorClass, message: string | RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught !== undefined, "expected an error, but nothing was thrown");
  assert.ok(
    caught instanceof error && caught.constructor === error,
    `expected a ${error.name}, got ${caught}`,
  );
  if (typeof message === "string") assert.equal(caught.message, message);
  else assert.match(caught.message, message);
}

// ---- raw Scenario objects through validateScenario ---------------------------------------

const P = "Cannot build scenario 't': ";
/** A scenario named `t` with one exchange of `steps`. */
const withSteps = (...steps: unknown[]) => ({
  name: "t",
  exchanges: [{ trigger: any(), steps }],
});
/** validateScenario on a scenario with one step. */
const step = (s: unknown) => () => validateScenario(withSteps(s));
/** validateScenario on a scenario named `t` with `fields`. */
const fields = (f: Record<string, unknown>) => () =>
  validateScenario({ name: "t", exchanges: [], ...f });
const block = (name: string, input: unknown = {}) => ({
  block: { type: "tool_use", id: "toolu_1", name, input },
  result: { content: "ok", isError: false },
});

const RAW_CASES: BadCase[] = [
  {
    name: "not an object",
    run: () => validateScenario(null),
    error: TypeError,
    message: "Cannot build scenario: the scenario must be an object, got null",
  },
  {
    name: "exchanges missing",
    run: () => validateScenario({ name: "t" }),
    error: TypeError,
    message: `${P}'exchanges' must be an array of exchanges, got undefined`,
  },
  {
    name: "name not a string",
    run: () => validateScenario({ name: 42, exchanges: [] }),
    error: TypeError,
    message: "Cannot build scenario: 'name' must be a string, got a number",
  },
  {
    name: "seed a string",
    run: fields({ seed: "abc" }),
    error: TypeError,
    message: `${P}'seed' must be a bigint or a safe integer, got a string`,
  },
  {
    name: "seed a float",
    run: fields({ seed: 1.5 }),
    error: RangeError,
    message: `${P}'seed' must be a bigint or a safe integer, got 1.5`,
  },
  {
    name: "speedFactor NaN",
    run: fields({ speedFactor: NaN }),
    error: RangeError,
    message: `${P}'speedFactor' must be a finite number >= 0, got NaN`,
  },
  {
    name: "speedFactor negative",
    run: fields({ speedFactor: -1 }),
    error: RangeError,
    message: `${P}'speedFactor' must be a finite number >= 0, got -1`,
  },
  {
    name: "speedFactor too large",
    run: fields({ speedFactor: 5000 }),
    error: RangeError,
    message: `${P}'speedFactor' must be at most 1000, got 5000`,
  },
  {
    name: "timing: unknown profile",
    run: fields({ timing: "fats" }),
    error: RangeError,
    message:
      `${P}'timing' must be a timing profile name (instant, fast, realistic, slow) or a {baseMs, jitterMs} object, got "fats"`,
  },
  {
    name: "timing: Infinity base",
    run: fields({ timing: { baseMs: Infinity, jitterMs: 0 } }),
    error: RangeError,
    message: `${P}'timing.baseMs' must be a finite number >= 0, got Infinity`,
  },
  {
    name: "exchange timing: bad byType delay",
    run: () =>
      validateScenario({
        name: "t",
        exchanges: [{
          trigger: any(),
          steps: [],
          timing: { baseMs: 1, jitterMs: 0, byType: { stream_event: { baseMs: 0, jitterMs: -2 } } },
        }],
      }),
    error: RangeError,
    message:
      `${P}'exchanges[0].timing.byType.stream_event.jitterMs' must be a finite number >= 0, got -2`,
  },
  {
    name: "exitCode 300",
    run: fields({ exitCode: 300 }),
    error: RangeError,
    message: `${P}'exitCode' must be an integer from 0 to 255, got 300`,
  },
  {
    name: "exitCode a string",
    run: fields({ exitCode: "1" }),
    error: TypeError,
    message: `${P}'exitCode' must be an integer from 0 to 255, got a string`,
  },
  {
    name: "crashAfter code 0",
    run: fields({ crashAfter: { frames: 2, code: 0 } }),
    error: RangeError,
    message: `${P}'crashAfter.code' must be an integer from 1 to 255, got 0`,
  },
  {
    name: "crashAfter frames a float",
    run: fields({ crashAfter: { frames: 1.5, code: 1 } }),
    error: RangeError,
    message: `${P}'crashAfter.frames' must be an integer >= 0, got 1.5`,
  },
  {
    name: "crashAfter not an object",
    run: fields({ crashAfter: 3 }),
    error: TypeError,
    message:
      `${P}'crashAfter' must be a crash point object ({frames}, {assistantMessages}, {beforeToolResult} or {midStream}, and an optional code), got a number`,
  },
  {
    name: "partialMessages a string",
    run: fields({ partialMessages: "yes" }),
    error: TypeError,
    message: `${P}'partialMessages' must be a boolean, got a string`,
  },
  {
    name: "model empty",
    run: fields({ model: "" }),
    error: RangeError,
    message: `${P}'model' must be a non-empty string, got ""`,
  },
  {
    name: "initialize an array",
    run: fields({ initialize: [] }),
    error: TypeError,
    message: `${P}'initialize' must be an object, got an array`,
  },
  {
    name: "tools a string",
    run: fields({ tools: "Bash" }),
    error: TypeError,
    message: `${P}'tools' must be an array of tool names, got a string`,
  },
  {
    name: "tools with a number",
    run: fields({ tools: ["Bash", 3] }),
    error: TypeError,
    message: `${P}'tools[1]' must be a non-empty string, got a number`,
  },
  {
    name: "permissions.allow a string",
    run: fields({ permissions: { allow: "Bash" } }),
    error: TypeError,
    message: `${P}'permissions.allow' must be an array of rule strings, got a string`,
  },
  {
    name: "permissions typo",
    run: fields({ permissions: { alow: ["Bash"] } }),
    error: TypeError,
    message: `${P}'permissions.alow' is not a permission rule list (did you mean 'allow'?)`,
  },
  {
    name: "permissions.deny with a number",
    run: fields({ permissions: { deny: [1] } }),
    error: TypeError,
    message: `${P}'permissions.deny[0]' must be a non-empty string, got a number`,
  },
  {
    name: "models a string",
    run: fields({ models: "opus" }),
    error: TypeError,
    message: `${P}'models' must be an array of model names, got a string`,
  },
  {
    name: "unmatched an unknown string",
    run: fields({ unmatched: "oops" }),
    error: TypeError,
    message:
      `${P}'unmatched' must be "error", "warn", an array of steps or a function, got the string "oops" (to answer with a text: onUnmatched({ reply: "oops" }))`,
  },
  {
    name: "unmatched a number",
    run: fields({ unmatched: 42 }),
    error: TypeError,
    message:
      `${P}'unmatched' must be "error", "warn", an array of steps or a function, got a number`,
  },
  {
    name: "unmatched with a bad step",
    run: fields({ unmatched: [{ kind: "delay", ms: -1 }] }),
    error: RangeError,
    message: `${P}'unmatched[0].ms' must be a finite number >= 0, got -1`,
  },
  {
    name: "onConnect a function",
    run: fields({ onConnect: () => [] }),
    error: TypeError,
    message: `${P}'onConnect' must be an array of emit, raw or delay steps, got a function`,
  },
  {
    name: "onConnect with a message step",
    run: fields({ onConnect: [{ kind: "message", parts: [text("hi")] }] }),
    error: TypeError,
    message:
      `${P}'onConnect[0]' is a 'message' step; onConnect runs only emit, raw and delay steps`,
  },
  {
    name: "unknown scenario field",
    run: fields({ speedfactor: 2 }),
    error: TypeError,
    message: `${P}'speedfactor' is not a scenario field (did you mean 'speedFactor'?)`,
  },
  {
    name: "exchange not an object",
    run: () => validateScenario({ name: "t", exchanges: ["hi"] }),
    error: TypeError,
    message: `${P}'exchanges[0]' must be an exchange object ({trigger, steps}), got a string`,
  },
  {
    name: "trigger a string",
    run: () => validateScenario({ name: "t", exchanges: [{ trigger: "hi", steps: [] }] }),
    error: TypeError,
    message:
      /^Cannot build scenario 't': 'exchanges\[0\]\.trigger' must be a Matcher .* got a string$/,
  },
  {
    name: "steps a string",
    run: () => validateScenario({ name: "t", exchanges: [{ trigger: any(), steps: "hi" }] }),
    error: TypeError,
    message: `${P}'exchanges[0].steps' must be an array of steps or a step function, got a string`,
  },
  {
    name: "repeat a string",
    run: () =>
      validateScenario({ name: "t", exchanges: [{ trigger: any(), steps: [], repeat: "yes" }] }),
    error: TypeError,
    message: `${P}'exchanges[0].repeat' must be a boolean, got a string`,
  },
  {
    name: "step null",
    run: step(null),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0]' must be a step object with a 'kind', got null`,
  },
  {
    name: "a failure step with a misspelt name",
    run: step({ kind: "failure", name: "overload" }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].name' is not a failure name: "overload" (did you mean 'overloaded'?)`,
  },
  {
    name: "unknown step kind",
    run: step({ kind: "emitt" }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].kind' must be one of emit, message, delay, raw, result, waitForWrite, request, apiError, failure, exit, crash, got "emitt"`,
  },
  {
    name: "unknown step field",
    run: step({ kind: "apiError", status: 500, retrys: 2 }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].retrys' is not a field of 'apiError' steps (did you mean 'retries'?)`,
  },
  {
    name: "delay NaN (the issue's example)",
    run: () =>
      validateScenario({
        name: "deploy",
        exchanges: [
          { trigger: any(), steps: [] },
          { trigger: any(), steps: [] },
          { trigger: any(), steps: [{ kind: "delay", ms: NaN }] },
        ],
      }),
    error: RangeError,
    message:
      "Cannot build scenario 'deploy': 'exchanges[2].steps[0].ms' must be a finite number >= 0, got NaN",
  },
  {
    name: "delay Infinity",
    run: step({ kind: "delay", ms: Infinity }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].ms' must be a finite number >= 0, got Infinity`,
  },
  {
    name: "delay negative",
    run: step({ kind: "delay", ms: -1 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].ms' must be a finite number >= 0, got -1`,
  },
  {
    name: "delay too long",
    run: step({ kind: "delay", ms: 2 ** 31 }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].ms' must be at most 2147483647 ms (about 24.8 days), got 2147483648`,
  },
  {
    name: "delay a string",
    run: step({ kind: "delay", ms: "5" }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].ms' must be a finite number >= 0, got a string`,
  },
  {
    name: "emit frame without type",
    run: step({ kind: "emit", frame: {} }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].frame.type' must be a non-empty string, got undefined`,
  },
  {
    name: "emit delay object negative",
    run: step({ kind: "emit", frame: { type: "x" }, delay: { baseMs: -1, jitterMs: 0 } }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].delay.baseMs' must be a finite number >= 0, got -1`,
  },
  {
    name: "emit delay a string",
    run: step({ kind: "emit", frame: { type: "x" }, delay: "fast" }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].delay' must be a number of ms or a {baseMs, jitterMs} delay, got a string`,
  },
  {
    name: "message without parts",
    run: step({ kind: "message", parts: [] }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].parts' must have at least one part, got an empty array`,
  },
  {
    name: "message parts a string",
    run: step({ kind: "message", parts: "hi" }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].parts' must be an array of message parts, got a string`,
  },
  {
    name: "message part a number",
    run: step({ kind: "message", parts: [42] }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].parts[0]' must be a content block, a tool call or a function, got a number`,
  },
  {
    name: "content block of unknown type",
    run: step({ kind: "message", parts: [{ type: "txt", text: "hi" }] }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].parts[0].type' must be one of 'text', 'thinking', 'redacted_thinking', 'tool_use', got "txt"`,
  },
  {
    name: "text block without text",
    run: step({ kind: "message", parts: [text("a"), { type: "text" }] }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].parts[1].text' must be a string, got undefined`,
  },
  {
    name: "tool call with an empty name",
    run: step({ kind: "message", parts: [block("")] }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].parts[0].block.name' must be a non-empty string, got ""`,
  },
  {
    name: "tool call input an array",
    run: step({ kind: "message", parts: [block("Bash", [])] }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].parts[0].block.input' must be an object, got an array`,
  },
  {
    name: "tool call permission unknown",
    run: step({ kind: "message", parts: [{ ...block("Bash"), permission: "maybe" }] }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].parts[0].permission' must be one of 'allow', 'ask', 'deny', got "maybe"`,
  },
  {
    name: "tool call ifDenied with a bad step",
    run: step({
      kind: "message",
      parts: [{ ...block("Bash"), ifDenied: [{ kind: "exit", code: -1 }] }],
    }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].parts[0].ifDenied[0].code' must be an integer from 0 to 255, got -1`,
  },
  {
    name: "outputTokens -5",
    run: step({ kind: "message", parts: [text("x")], outputTokens: -5 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].outputTokens' must be an integer >= 0, got -5`,
  },
  {
    name: "outputTokens a float",
    run: step({ kind: "message", parts: [text("x")], outputTokens: 1.5 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].outputTokens' must be an integer >= 0, got 1.5`,
  },
  {
    name: "messageId a number",
    run: step({ kind: "message", parts: [text("x")], messageId: 5 }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].messageId' must be a non-empty string, got a number`,
  },
  {
    name: "raw line with a newline",
    run: step({ kind: "raw", line: "a\nb" }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].line' must be a single line (no "\\n" or "\\r"), got "a\\nb"`,
  },
  {
    name: "raw line with a carriage return",
    run: step({ kind: "raw", line: "a\rb" }),
    error: RangeError,
    message: /'exchanges\[0\]\.steps\[0\]\.line' must be a single line/,
  },
  {
    name: "raw line a number",
    run: step({ kind: "raw", line: 5 }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].line' must be a string, got a number`,
  },
  {
    name: "result without options",
    run: step({ kind: "result" }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].options' must be an object of result options, got undefined`,
  },
  {
    name: "result subtype unknown",
    run: step({ kind: "result", options: { subtype: "failure" } }),
    error: RangeError,
    message:
      /'exchanges\[0\]\.steps\[0\]\.options\.subtype' must be one of 'success', .* got "failure"$/,
  },
  {
    name: "result errors a string",
    run: step({ kind: "result", options: { subtype: "error_during_execution", errors: "boom" } }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].options.errors' must be an array of strings, got a string`,
  },
  {
    name: "result errors on success",
    run: step({ kind: "result", options: { errors: ["boom"] } }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].options.errors' only applies to error subtypes, not 'success' (set 'subtype', e.g. 'error_during_execution')`,
  },
  {
    name: "result text on an error subtype",
    run: step({ kind: "result", options: { subtype: "error_max_turns", result: "x" } }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].options.result' only applies to subtype 'success', not 'error_max_turns' (error results carry 'errors')`,
  },
  {
    name: "result cost negative",
    run: step({ kind: "result", options: { totalCostUsd: -1 } }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].options.totalCostUsd' must be a finite number >= 0, got -1`,
  },
  {
    name: "result apiErrorStatus 200",
    run: step({ kind: "result", options: { apiErrorStatus: 200 } }),
    error: RangeError,
    message:
      `${P}'exchanges[0].steps[0].options.apiErrorStatus' must be an integer from 400 to 599, got 200`,
  },
  {
    name: "result stopReason a number",
    run: step({ kind: "result", options: { stopReason: 5 } }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].options.stopReason' must be a string, got a number`,
  },
  {
    name: "result extra a string",
    run: step({ kind: "result", options: { extra: "x" } }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].options.extra' must be an object, got a string`,
  },
  {
    name: "result terminalReason unknown",
    run: step({ kind: "result", options: { terminalReason: "done" } }),
    error: RangeError,
    message:
      /'exchanges\[0\]\.steps\[0\]\.options\.terminalReason' must be one of .*'completed'.* got "done"$/,
  },
  {
    name: "waitForWrite matcher a string",
    run: step({ kind: "waitForWrite", matcher: "ready" }),
    error: TypeError,
    message: /'exchanges\[0\]\.steps\[0\]\.matcher' must be a Matcher .* got a string$/,
  },
  {
    name: "waitForWrite timeout 0",
    run: step({ kind: "waitForWrite", matcher: any(), timeoutMs: 0 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].timeoutMs' must be a finite number > 0, got 0`,
  },
  {
    name: "waitForWrite timeout NaN",
    run: step({ kind: "waitForWrite", matcher: any(), timeoutMs: NaN }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].timeoutMs' must be a finite number > 0, got NaN`,
  },
  {
    name: "request without subtype",
    run: step({ kind: "request", request: {} }),
    error: TypeError,
    message:
      `${P}'exchanges[0].steps[0].request.subtype' must be a non-empty string, got undefined`,
  },
  {
    name: "request onResponse a string",
    run: step({ kind: "request", request: { subtype: "x" }, onResponse: "log" }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].onResponse' must be a function, got a string`,
  },
  {
    name: "request timeout negative",
    run: step({ kind: "request", request: { subtype: "x" }, timeoutMs: -1 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].timeoutMs' must be a finite number > 0, got -1`,
  },
  {
    name: "apiError status 200",
    run: step({ kind: "apiError", status: 200 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].status' must be an integer from 400 to 599, got 200`,
  },
  {
    name: "apiError retries Infinity",
    run: step({ kind: "apiError", status: 500, retries: Infinity }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].retries' must be an integer from 0 to 100, got Infinity`,
  },
  {
    name: "apiError retries 101",
    run: step({ kind: "apiError", status: 500, retries: 101 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].retries' must be an integer from 0 to 100, got 101`,
  },
  {
    name: "apiError retryDelayMs NaN",
    run: step({ kind: "apiError", status: 529, retries: 1, retryDelayMs: NaN }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].retryDelayMs' must be a finite number >= 0, got NaN`,
  },
  {
    name: "apiError recovers a string",
    run: step({ kind: "apiError", status: 500, recovers: "yes" }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].recovers' must be a boolean, got a string`,
  },
  {
    name: "apiError message a number",
    run: step({ kind: "apiError", status: 500, message: 5 }),
    error: TypeError,
    message: `${P}'exchanges[0].steps[0].message' must be a string, got a number`,
  },
  {
    name: "exit code 300",
    run: step({ kind: "exit", code: 300 }),
    error: RangeError,
    message: `${P}'exchanges[0].steps[0].code' must be an integer from 0 to 255, got 300`,
  },
  {
    name: "a loaded file: verb and source",
    run: () => validateScenario(withSteps({ kind: "exit" }), { verb: "load", source: "chat.json" }),
    error: TypeError,
    message:
      "Cannot load scenario 't': 'exchanges[0].steps[0].code' must be an integer from 0 to 255, got undefined (in chat.json)",
  },
];

Deno.test("validateScenario rejects bad scenarios naming the path and the problem", async (t) => {
  for (const c of RAW_CASES) {
    await t.step(c.name, () => expectError(c.run, c.error, c.message));
  }
});

// ---- the same through the builder, where each method checks its arguments -------------

const B = "Cannot build scenario 'x': ";
const named = () => new ScenarioBuilder({ name: "x" });

const BUILDER_CASES: BadCase[] = [
  {
    name: "seed a string",
    run: () => new ScenarioBuilder({ name: "x", seed: "abc" as unknown as number }),
    error: TypeError,
    message: `${B}'seed' must be a bigint or a safe integer, got a string`,
  },
  {
    name: "permissions.allow a string",
    run: () => new ScenarioBuilder({ name: "x", permissions: { allow: "Bash" as never } }),
    error: TypeError,
    message: `${B}'permissions.allow' must be an array of rule strings, got a string`,
  },
  {
    name: "tools a string",
    run: () => new ScenarioBuilder({ name: "x", tools: "Bash" as never }),
    error: TypeError,
    message: `${B}'tools' must be an array of tool names, got a string`,
  },
  {
    name: "an option typo",
    run: () => new ScenarioBuilder({ name: "x", speedfactor: 2 } as never),
    error: TypeError,
    message: `${B}'speedfactor' is not a scenario field (did you mean 'speedFactor'?)`,
  },
  {
    name: "exchanges as an option",
    run: () => new ScenarioBuilder({ name: "x", exchanges: [] } as never),
    error: TypeError,
    message:
      `${B}'exchanges' is set with the builder's methods (on, onConnect, onUnmatched), not as an option`,
  },
  {
    name: "usesRead without options",
    run: () =>
      named().on("read").respond("Reading.").usesRead(
        "/a",
        undefined as unknown as {
          content: string;
        },
      ),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[1]' usesRead needs options.content (a string, or null for a missing file), got undefined`,
  },
  {
    name: "usesRead without a path",
    run: () => named().on("read").usesRead("", { content: "a" }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0]' usesRead needs a file path (a non-empty string), got ""`,
  },
  {
    name: "usesWrite without content",
    run: () => named().on("w").usesWrite("/a", {} as { content: string }),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[0]' usesWrite needs options.content (a string), got undefined`,
  },
  {
    name: "usesEdit without newString",
    run: () =>
      named().on("e").usesEdit(
        "/a",
        { oldString: "a" } as { oldString: string; newString: string },
      ),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[0]' usesEdit needs options.newString (a string), got undefined`,
  },
  {
    name: "usesTask without prompt",
    run: () => named().on("t").usesTask("Explore", { result: "done" } as never),
    error: TypeError,
    message: `${B}'exchanges[0].steps[0]' usesTask needs options.prompt (a string), got undefined`,
  },
  {
    name: "usesTool with an empty name",
    run: () => named().on("t").usesTool("", {}),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0]' usesTool needs a tool name (a non-empty string), got ""`,
  },
  {
    name: "usesTool input a string",
    run: () => named().on("t").usesTool("mcp__calc__add", "1+2" as never),
    error: TypeError,
    message: `${B}'exchanges[0].steps[0]' usesTool needs an input (a plain object), got a string`,
  },
  {
    name: "usesBash exit code 300",
    run: () => named().on("b").usesBash("false", { exitCode: 300 }),
    error: RangeError,
    message:
      `${B}'exchanges[0].steps[0]' usesBash needs options.exitCode (an integer from 0 to 255), got 300`,
  },
  {
    name: "uses* permission unknown",
    run: () => named().on("b").usesBash("ls", { permission: "maybe" as "ask" }),
    error: RangeError,
    message:
      `${B}'exchanges[0].steps[0]' usesBash needs options.permission to be 'allow', 'ask' or 'deny', got "maybe"`,
  },
  {
    name: "uses* ifDenied with a bad step",
    run: () =>
      named().on("b").usesBash("rm -rf /", {
        say: "Cleaning up.",
        ifDenied: [{ kind: "exit", code: 999 }],
      }),
    error: RangeError,
    message:
      `${B}'exchanges[0].steps[0].parts[1].ifDenied[0].code' must be an integer from 0 to 255, got 999`,
  },
  {
    name: "usesAskUserQuestion without questions",
    run: () => named().on("q").usesAskUserQuestion([]),
    error: RangeError,
    message:
      `${B}'exchanges[0].steps[0]' usesAskUserQuestion needs questions (a non-empty array), got an empty array`,
  },
  {
    name: "usesAskUserQuestion without a header",
    run: () =>
      named().on("q").usesAskUserQuestion([{ question: "Which?", options: ["a"] } as never]),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[0]' usesAskUserQuestion needs questions[0].header (a string), got undefined`,
  },
  {
    name: "respond outputTokens -5",
    run: () => named().on("hi").respond("x", { outputTokens: -5 }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].outputTokens' must be an integer >= 0, got -5`,
  },
  {
    name: "respond without content",
    run: () => named().on("hi").respond(undefined as unknown as string),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[0]' respond needs content: a text, a content block, a tool call or an array of them, got undefined`,
  },
  {
    name: "respond with an empty array",
    run: () => named().on("hi").respond([]),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].parts' must have at least one part, got an empty array`,
  },
  {
    name: "respond delay Infinity",
    run: () => named().on("hi").respond("x", { delay: Infinity }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].delay' must be a finite number >= 0, got Infinity`,
  },
  {
    name: "respondDelayed NaN",
    run: () => named().on("hi").respond("a").respondDelayed(NaN, "b"),
    error: RangeError,
    message: `${B}'exchanges[0].steps[1].delay' must be a finite number >= 0, got NaN`,
  },
  {
    name: "delay negative, in the second exchange",
    run: () => named().on("a").respond("a").on("b").delay(-5),
    error: RangeError,
    message: `${B}'exchanges[1].steps[0].ms' must be a finite number >= 0, got -5`,
  },
  {
    name: "delay Infinity",
    run: () => named().on("a").delay(Infinity),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].ms' must be a finite number >= 0, got Infinity`,
  },
  {
    name: "sendRaw with a newline",
    run: () => named().on("a").sendRaw("{}\n{}"),
    error: RangeError,
    message:
      `${B}'exchanges[0].steps[0].line' must be a single line (no "\\n" or "\\r"), got "{}\\n{}"`,
  },
  {
    name: "waitForWrite timeout Infinity",
    run: () => named().on("a").waitForWrite("ready", { timeoutMs: Infinity }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].timeoutMs' must be a finite number > 0, got Infinity`,
  },
  {
    name: "waitForWrite trigger a number",
    run: () => named().on("a").waitForWrite(5 as never),
    error: TypeError,
    message:
      `${B}'exchanges[0].steps[0].matcher' must be a string, RegExp, function or Matcher, got a number`,
  },
  {
    name: "apiError retries Infinity",
    run: () => named().on("a").apiError(500, { retries: Infinity }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].retries' must be an integer from 0 to 100, got Infinity`,
  },
  {
    name: "apiError status 200",
    run: () => named().on("a").apiError(200),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].status' must be an integer from 400 to 599, got 200`,
  },
  {
    name: "exit 300",
    run: () => named().on("a").exit(300),
    error: RangeError,
    message: `${B}'exchanges[0].steps[0].code' must be an integer from 0 to 255, got 300`,
  },
  {
    name: "thenResult with an unknown subtype",
    run: () => named().on("a").thenResult({ subtype: "nope" as "success" }),
    error: RangeError,
    message:
      /^Cannot build scenario 'x': 'exchanges\[0\]\.steps\[0\]\.options\.subtype' must be one of/,
  },
  {
    name: "emit a frame without type",
    run: () => named().on("a").emit({} as never),
    error: TypeError,
    message: `${B}'exchanges[0].steps[0].frame.type' must be a non-empty string, got undefined`,
  },
  {
    name: "steps with a bad step",
    run: () => named().on("a").respond("a").steps({ kind: "delay", ms: -1 }),
    error: RangeError,
    message: `${B}'exchanges[0].steps[1].ms' must be a finite number >= 0, got -1`,
  },
  {
    name: "crashAfter code 0",
    run: () => named().crashAfter(1, 0),
    error: RangeError,
    message: `${B}'crashAfter.code' must be an integer from 1 to 255, got 0`,
  },
  {
    name: "crashAfter frames -1",
    run: () => named().crashAfter(-1),
    error: RangeError,
    message: `${B}'crashAfter.frames' must be an integer >= 0, got -1`,
  },
  {
    name: "withExitCode 300",
    run: () => named().withExitCode(300),
    error: RangeError,
    message: `${B}'exitCode' must be an integer from 0 to 255, got 300`,
  },
  {
    name: "timing unknown",
    run: () => named().timing("fats" as "fast"),
    error: RangeError,
    message: /^Cannot build scenario 'x': 'timing' must be a timing profile name/,
  },
  {
    name: "exchange timing NaN",
    run: () => named().on("a").respond("a").on("b").timing({ baseMs: NaN, jitterMs: 0 }),
    error: RangeError,
    message: `${B}'exchanges[1].timing.baseMs' must be a finite number >= 0, got NaN`,
  },
  {
    name: "partialMessages a string",
    run: () => named().partialMessages("yes" as never),
    error: TypeError,
    message: `${B}'partialMessages' must be a boolean, got a string`,
  },
  {
    name: "on with a number",
    run: () => named().on(42 as never),
    error: TypeError,
    message:
      `${B}'exchanges[0].trigger' must be a string, RegExp, function or Matcher, got a number`,
  },
  {
    name: "onLazy without a function",
    run: () => named().onLazy("a", [] as never),
    error: TypeError,
    message: `${B}'exchanges[0].steps' onLazy needs a step function, got an array`,
  },
  {
    name: "onUnmatched with a number",
    run: () => named().onUnmatched(42 as never),
    error: TypeError,
    message:
      `${B}'unmatched' must be "error", "warn", {reply}, an array of steps or a function, got a number`,
  },
  {
    name: "onConnect a frame without type",
    run: () => named().onConnect({ type: "keep_alive" }, { kind: "x" } as never),
    error: TypeError,
    message: `${B}'onConnect[1].frame.type' must be a non-empty string, got undefined`,
  },
  {
    name: "a nameless scenario",
    run: () => new ScenarioBuilder().on("a").delay(-1),
    error: RangeError,
    message:
      "Cannot build scenario: 'exchanges[0].steps[0].ms' must be a finite number >= 0, got -1",
  },
];

Deno.test("ScenarioBuilder methods reject bad arguments when called", async (t) => {
  for (const c of BUILDER_CASES) {
    await t.step(c.name, () => expectError(c.run, c.error, c.message));
  }
});

Deno.test("the tables cover at least 40 bad scenarios each way", () => {
  assert.ok(RAW_CASES.length >= 40, `${RAW_CASES.length} raw cases`);
  assert.ok(BUILDER_CASES.length >= 40, `${BUILDER_CASES.length} builder cases`);
});

// ---- good scenarios ---------------------------------------------------------------------

Deno.test("ScenarioBuilder: every method, used well, builds a valid scenario", () => {
  const scenario = new ScenarioBuilder({
    name: "everything",
    seed: 42n,
    speedFactor: 0.5,
    model: "claude-sonnet-5-5",
    sessionId: "00000000-0000-4000-8000-000000000000",
    cwd: "/home/user/project",
    initialize: { pid: 1 },
    tools: ["Read", "Bash"],
    permissions: { allow: ["Read"], ask: ["Bash(git push:*)"], deny: ["Bash(rm:*)"] },
    models: ["claude-haiku-5-5"],
  })
    .timing("fast")
    .partialMessages(false)
    .onConnect({ type: "keep_alive" })
    .on("hello", { repeat: false })
    .respond("Hello!", { thinking: "Greet.", delay: 0, outputTokens: 3 })
    .respond([text("Two"), text("parts")])
    .respondDelayed(250, "Later.")
    .usesRead("/a.txt", { content: "a\n", say: "Reading." })
    .usesRead("/missing.txt", { content: null })
    .usesWrite("/b.txt", { content: "b", permission: "ask", ifDenied: "Fine." })
    .usesEdit("/b.txt", { oldString: "b", newString: "c", replaceAll: true })
    .usesBash("npm test", { stdout: "ok", stderr: "", exitCode: 0, description: "Run tests" })
    .usesTask("Explore", { prompt: "Look around", result: "Done", subagentType: "Explore" })
    .usesTool("mcp__calc__add", { a: 1, b: 2 }, { result: "3", isError: false })
    .usesAskUserQuestion([{
      question: "Which?",
      header: "Pick",
      options: ["a", { label: "b", description: "B" }],
      multiSelect: true,
    }])
    .emit({ type: "system", subtype: "notification", text: "hi" })
    .delay(1000)
    .sendRaw("{not json")
    .waitForWrite(exact("go on"), { timeoutMs: 5000 })
    .apiError(529, { message: "Overloaded", retries: 2, retryDelayMs: 10, recovers: true })
    .steps({ kind: "request", request: { subtype: "ping" }, timeoutMs: 100, onResponse: () => {} })
    .thenResult({ subtype: "success", result: "ok", totalCostUsd: 0, stopReason: null, extra: {} })
    .timing({ baseMs: 1, jitterMs: 1, byType: { stream_event: { baseMs: 0, jitterMs: 0 } } })
    .repeat()
    .on(/exit/)
    .exit(0)
    .onLazy("lazy", function* () {
      yield { kind: "delay", ms: 1 } as Step;
    }, { repeat: true, timing: "instant" })
    .onUnmatched({ reply: "Sorry?" })
    .crashAfter(100, 2)
    .withExitCode(0)
    .build();
  assert.equal(scenario.exchanges.length, 3);
  assert.equal(validateScenario(scenario), scenario);
  assert.equal(new ScenarioBuilder().onUnmatched("error").build().unmatched, "error");
  assert.ok(new ScenarioBuilder().onUnmatched([{ kind: "raw", line: "x" }]).build());
  assert.ok(new ScenarioBuilder().onUnmatched(function* () {}).build());
});

Deno.test("validateScenario accepts good raw scenarios and returns them", () => {
  const ctx = createBuildContext({ seed: 1 });
  const good: Scenario[] = [
    { exchanges: [] },
    {
      name: "raw",
      seed: 2 ** 53 - 1,
      timing: { name: "mine", baseMs: 0, jitterMs: 0, firstFrameMs: 5 },
      exitCode: 255,
      crashAfter: { frames: 0, code: 255 },
      speedFactor: 0,
      unmatched: "error",
      onConnect: [
        { kind: "emit", frame: () => ({ type: "keep_alive" }), delay: { baseMs: 1, jitterMs: 0 } },
        { kind: "raw", line: "" },
        { kind: "delay", ms: SCENARIO_LIMITS.maxDelayMs },
      ],
      exchanges: [
        {
          trigger: any(),
          repeat: true,
          steps: [
            {
              kind: "message",
              parts: [
                thinking("hm"),
                text("a"),
                { type: "redacted_thinking", data: "x" },
                { type: "tool_use", id: "toolu_2", name: "Read", input: {} },
                { ...readTool(ctx, "/a", { content: "a" }), permission: "deny", ifDenied: [] },
                () => text("lazy"),
              ],
              messageId: "msg_1",
              outputTokens: 0,
              delay: 5,
            },
            {
              kind: "result",
              options: { subtype: "error_during_execution", errors: ["boom"] },
            },
            { kind: "result", options: { apiErrorStatus: 529, terminalReason: "api_error" } },
            { kind: "apiError", status: 400 },
            { kind: "exit", code: 0 },
          ],
        },
        { trigger: any(), steps: () => [] },
      ],
    },
  ];
  for (const s of good) assert.equal(validateScenario(s), s);
  // a TimingProfile is a Delay: its extra fields are not typos
  const profile = timingProfile("fast");
  validateStep({ kind: "emit", frame: { type: "x" }, delay: profile }, "onConnect[0]");
});

// ---- steps produced lazily, and timings ------------------------------------------------

Deno.test("validateStep checks a produced step, saying it came from a step function", () => {
  expectError(
    () => validateStep({ kind: "delay", ms: NaN }, "exchanges[0].steps[3]", { name: "x" }),
    RangeError,
    "Cannot run scenario 'x': 'exchanges[0].steps[3].ms' (produced by a step function) must be a finite number >= 0, got NaN",
  );
  expectError(
    () => validateStep(undefined, "exchanges[1].steps[0]"),
    TypeError,
    "Cannot run scenario: 'exchanges[1].steps[0]' (produced by a step function) must be a step object with a 'kind', got undefined",
  );
  expectError(
    () =>
      validateStep({ kind: "message", parts: [text("x")] }, "onConnect[0]", { onConnect: true }),
    TypeError,
    /'onConnect\[0\]' \(produced by a step function\) is a 'message' step; onConnect runs only/,
  );
  validateStep({ kind: "raw", line: "ok" }, "exchanges[0].steps[0]");
});

Deno.test("validateTiming names the field of a bad timing", () => {
  expectError(
    () => validateTiming({ baseMs: 1, jitterMs: 1, firstFrame: 3 }, "timing"),
    TypeError,
    "Cannot build scenario: 'timing.firstFrame' is not a timing field (did you mean 'firstFrameMs'?)",
  );
  expectError(
    () =>
      validateTiming(null, "exchanges[0].timing", { name: "x", verb: "load", source: "a.json" }),
    TypeError,
    /^Cannot load scenario 'x': 'exchanges\[0\]\.timing' must be a timing profile name .* got null \(in a\.json\)$/,
  );
  validateTiming("realistic", "timing");
});

// ---- the other doors: settings, defaults, PCG32 seeds, timing profiles ------------------

Deno.test("rulesFromSettings and decidePermission reject a wrong shape clearly", () => {
  expectError(
    () => rulesFromSettings('{"permissions":{"allow":"Bash"}}'),
    TypeError,
    "Cannot read --settings: 'permissions.allow' must be an array of rule strings, got a string",
  );
  expectError(
    () => rulesFromSettings('{"permissions":{"deny":["Bash", 3]}}'),
    TypeError,
    "Cannot read --settings: 'permissions.deny[1]' must be a string, got a number",
  );
  expectError(
    () => rulesFromSettings('{"permissions":"all"}'),
    TypeError,
    /^Cannot read --settings: 'permissions' must be an object .* got a string$/,
  );
  assert.deepEqual(rulesFromSettings('{"permissions":{"allow":["Read"]},"model":"x"}'), {
    allow: ["Read"],
  });
  assert.deepEqual(rulesFromSettings("/path/to/settings.json"), {});
  expectError(
    () =>
      decidePermission("Bash", { command: "ls" }, {
        mode: "default",
        sources: [{ rules: { allow: "Bash" as never }, source: "scenario" }],
      }),
    TypeError,
    "Cannot decide permission for 'Bash': 'allow' of the scenario rules must be an array of rule strings, got a string",
  );
});

Deno.test("setDefaults checks each value and changes nothing on error", () => {
  const before = getDefaults();
  expectError(
    () => setDefaults({ seed: "abc" as never }),
    TypeError,
    "Cannot set defaults: 'seed' must be a bigint or a safe integer, got a string",
  );
  expectError(
    () => setDefaults({ seed: 0.5 }),
    RangeError,
    "Cannot set defaults: 'seed' must be a bigint or a safe integer, got 0.5",
  );
  expectError(
    () => setDefaults({ speedFactor: Infinity }),
    RangeError,
    "Cannot set defaults: 'speedFactor' must be a finite number from 0 to 1000, got Infinity",
  );
  expectError(
    () => setDefaults({ timing: "warp" as "fast" }),
    RangeError,
    `Cannot set defaults: 'timing' must be a timing profile name (instant, fast, realistic, slow), got "warp"`,
  );
  expectError(
    () => setDefaults({ sped: 2 } as never),
    TypeError,
    "Cannot set defaults: 'sped' is not a default; expected seed, speedFactor or timing",
  );
  assert.equal(getDefaults(), before);
  const previous = setDefaults({ seed: 7n, timing: "fast" });
  assert.equal(getDefaults().seed, 7n);
  setDefaults(previous);
  assert.deepEqual(getDefaults(), previous);
});

Deno.test("Pcg32 names a bad seed", () => {
  expectError(
    () => new Pcg32("abc" as never),
    TypeError,
    "Cannot seed PCG32: 'seed' must be a bigint or a safe integer, got a string",
  );
  expectError(
    () => randomSeeded(1.5),
    RangeError,
    "Cannot seed PCG32: 'seed' must be a bigint or a safe integer, got 1.5",
  );
  expectError(
    () => new Pcg32(null as never),
    TypeError,
    "Cannot seed PCG32: 'seed' must be a bigint or a safe integer, got null",
  );
});

Deno.test("timingProfile names the bad field", () => {
  expectError(
    () => timingProfile({ baseMs: 1, jitterMs: NaN }),
    RangeError,
    "Invalid timing profile 'custom': 'jitterMs' must be a finite number >= 0, got NaN",
  );
  expectError(
    () => timingProfile({ name: "x", baseMs: "1" as never, jitterMs: 0 }),
    TypeError,
    "Invalid timing profile 'x': 'baseMs' must be a finite number >= 0, got a string",
  );
  expectError(
    () => timingProfile({ baseMs: 0, jitterMs: 0, firstFrameMs: 2 ** 31 }),
    RangeError,
    "Invalid timing profile 'custom': 'firstFrameMs' must be at most 2147483647 ms, got 2147483648",
  );
  expectError(
    () => timingProfile("toString" as "fast"),
    RangeError,
    /^Unknown timing profile 'toString'/,
  );
  expectError(() => timingProfile(null as never), TypeError, /^Invalid timing: .* got null$/);
});
