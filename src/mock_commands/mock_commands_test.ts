import assert from "node:assert/strict";
import { any } from "../scenario/matcher.ts";
import { mockCommand } from "../scenario/mock_command.ts";
import type { Scenario } from "../scenario/scenario.ts";
import { parseMockPrompt } from "./_parse.ts";
import { isMockPrompt, mockCommandPlanner } from "./mock_commands.ts";
import { parseCliFlags } from "../session/cli_args.ts";
import { Engine } from "../session/engine.ts";
import type { TurnState } from "../session/turn_state.ts";
import { WriteLog } from "../session/write_log.ts";

const noBuiltins = (name: string): never => {
  throw new RangeError(`Unknown builtin scenario '${name}'`);
};
const parse = (text: string) => parseMockPrompt(text, noBuiltins);

Deno.test('isMockPrompt: a prompt that starts with {"__mock__"', () => {
  assert.equal(isMockPrompt(mockCommand.delay(1)), true);
  assert.equal(isMockPrompt('  {\n "__mock__" : 1'), true);
  assert.equal(isMockPrompt('say {"__mock__": 1}'), false);
  assert.equal(isMockPrompt('{"mock": 1}'), false);
});

Deno.test("parseMockPrompt: sequences are flattened, each command keeps where it was", () => {
  const commands = parse(mockCommand.sequence([
    mockCommand.textResponse("a", { agentId: "x" }),
    mockCommand.sequence([
      mockCommand.toolUse("Read", { file_path: "/a" }, { toolUseId: "t" }),
      mockCommand.toolResult("t", { result: "A" }),
    ]),
    mockCommand.permissionRequest("Bash", { command: "ls" }, {
      suggestions: ["Bash(ls *)", "Read"],
    }),
    mockCommand.error("down", { code: 503 }),
  ]));
  assert.deepEqual(commands.map((c) => [c.command, c.at]), [
    ["text_response", "params.commands[0]"],
    ["tool_use", "params.commands[1].params.commands[0]"],
    ["tool_result", "params.commands[1].params.commands[1]"],
    ["permission_request", "params.commands[2]"],
    ["error", "params.commands[3]"],
  ]);
  const ask = commands[3] as { suggestions: unknown[] };
  assert.deepEqual(ask.suggestions, [
    {
      type: "addRules",
      rules: [{ toolName: "Bash", ruleContent: "ls *" }],
      behavior: "allow",
      destination: "localSettings",
    },
    {
      type: "addRules",
      rules: [{ toolName: "Read" }],
      behavior: "allow",
      destination: "localSettings",
    },
  ]);
  assert.deepEqual(parse(mockCommand.compactBoundary()), [
    { at: "", command: "compact_boundary", trigger: "auto" },
  ]);
});

Deno.test("parseMockPrompt: errors name the command, the field and the problem", () => {
  const cases: Array<[string, string | RegExp, ErrorConstructor]> = [
    [
      '{"__mock__": [1]}',
      '__mock__: \'__mock__\' must be a command object {"command": …, "params": {…}}, got an array',
      TypeError,
    ],
    [
      '{"__mock__": {"command": "text_response", "params": []}}',
      "__mock__ text_response: 'params' must be an object, got an empty array",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "text_response", "parms": {}}}',
      "__mock__ text_response: unexpected key 'parms' (a command has 'command' and 'params')",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "text_response"}}',
      "__mock__ text_response: 'params.text' is required",
      TypeError,
    ],
    [
      mockCommand.textResponse("x", { agentId: "" }),
      "__mock__ text_response: 'params.agent_id' must be a non-empty string",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "tool_use", "params": {"tool_name": "Read", "tool_input": "x"}}}',
      "__mock__ tool_use: 'params.tool_input' must be an object, got the string \"x\"",
      TypeError,
    ],
    [
      mockCommand.sequence([
        mockCommand.toolUse("A", {}, { toolUseId: "t" }),
        mockCommand.toolUse("B", {}, { toolUseId: "t" }),
      ]),
      "__mock__ tool_use: 'params.commands[1].params.tool_use_id' repeats the tool use id \"t\"",
      RangeError,
    ],
    [
      mockCommand.sequence([
        mockCommand.toolUse("A", {}, { toolUseId: "t" }),
        mockCommand.toolResult("t", { result: "a", error: "b" }),
      ]),
      "__mock__ tool_result: 'params.commands[1].params.error' cannot be given with 'result' (a result or an error)",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "result", "params": {"duration_ms": 1.5}}}',
      "__mock__ result: 'params.duration_ms' must be an integer >= 0, got 1.5",
      RangeError,
    ],
    [
      '{"__mock__": {"command": "result", "params": {"is_error": "yes"}}}',
      "__mock__ result: 'params.is_error' must be a boolean, got the string \"yes\"",
      TypeError,
    ],
    [
      mockCommand.error("x", { code: 200 }),
      "__mock__ error: 'params.code' must be an HTTP status from 400 to 599, got 200",
      RangeError,
    ],
    [
      mockCommand.error("x", { code: "melted" as never }),
      /^__mock__ error: 'params\.code' must be an HTTP status or a named failure \(auth_error, .*\), got "melted"$/,
      RangeError,
    ],
    [
      '{"__mock__": {"command": "system_status", "params": {"status": "busy"}}}',
      "__mock__ system_status: 'params.status' must be one of requesting, compacting, got \"busy\"",
      RangeError,
    ],
    [
      '{"__mock__": {"command": "system_status"}}',
      "__mock__ system_status: 'params.status' is required",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "system_init", "params": {"permission_mode": "yolo"}}}',
      /^__mock__ system_init: 'params\.permission_mode' must be one of default, /,
      RangeError,
    ],
    [
      '{"__mock__": {"command": "system_init", "params": {"tools": ["Read", 1]}}}',
      "__mock__ system_init: 'params.tools[1]' must be a string, got the number 1",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "compact_boundary", "params": {"trigger": "sometimes"}}}',
      "__mock__ compact_boundary: 'params.trigger' must be one of manual, auto, got \"sometimes\"",
      RangeError,
    ],
    [
      '{"__mock__": {"command": "stream_delta", "params": {"text": []}}}',
      "__mock__ stream_delta: 'params.text' must be a string or a non-empty array of strings (one text_delta each), got an empty array",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "delay", "params": {"ms": 1e12}}}',
      "__mock__ delay: 'params.ms' must be at most 2147483647, got 1000000000000",
      RangeError,
    ],
    [
      '{"__mock__": {"command": "permission_request", "params": {"tool_name": "Bash", "tool_input": {}, "suggestions": ["Bash(ls"]}}}',
      '__mock__ permission_request: \'params.suggestions[0]\' must be a rule like "Bash(git *)" or "Read", got "Bash(ls"',
      RangeError,
    ],
    [
      '{"__mock__": {"command": "ask_user_question", "params": {"questions": [{"question": "Q", "header": "H", "options": []}]}}}',
      "__mock__ ask_user_question: 'params.questions[0].options' must be a non-empty array of choices, got an empty array",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "ask_user_question", "params": {"questions": [{"question": "Q", "header": "H", "options": [{"label": "a"}]}]}}}',
      "__mock__ ask_user_question: 'params.questions[0].options[0].description' is required",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "hook_request", "params": {"event": "Stop"}}}',
      "__mock__ hook_request: 'params.input' is required",
      TypeError,
    ],
    [
      '{"__mock__": {"command": "sequence", "params": {"commands": {}}}}',
      "__mock__ sequence: 'params.commands' must be an array of commands, got an object",
      TypeError,
    ],
    [
      mockCommand.scenario("nope"),
      "__mock__ scenario: 'params.name' is not a predefined scenario: Unknown builtin scenario 'nope'",
      RangeError,
    ],
    [
      mockCommand.scenario({ exchanges: [{ on: 1 }] } as never),
      /^__mock__ scenario: 'params' must be \{"name": <a predefined scenario>, "prompt"\?: …\} or a scenario file's JSON: Cannot load scenario: 'exchanges\[0\]\.on' /,
      TypeError,
    ],
    [
      mockCommand.sequence([mockCommand.error("x"), mockCommand.delay(1)]),
      "__mock__ error: 'params.commands[0]' ends the turn, so it must be the last command, but delay ('params.commands[1]') follows it",
      RangeError,
    ],
  ];
  for (const [text, message, kind] of cases) {
    assert.throws(() => parse(text), (error: Error) => {
      assert.ok(error instanceof kind, `${text}: ${error.name}: ${error.message}`);
      if (typeof message === "string") assert.equal(error.message, message);
      else assert.match(error.message, message);
      return true;
    });
  }
  // nesting is bounded
  let deep = mockCommand.delay(1);
  for (let i = 0; i < 40; i++) deep = mockCommand.sequence([deep]);
  assert.throws(() => parse(deep), /nests sequences more than 32 deep/);
});

Deno.test("the __mock__ planner is added to every engine, and leaves other prompts and recordings alone", () => {
  const engine = (scenario: Scenario) =>
    new Engine({ scenario, flags: parseCliFlags([]), env: {}, writes: new WriteLog() });
  const turn = (text: string) => ({ text }) as TurnState;
  const planners = engine({ exchanges: [] }).planners;
  assert.equal(planners.length, 1, "loading mock_commands.ts adds the planner once");
  const [planner] = planners;
  assert.equal(planner(turn("hello")), undefined);
  assert.equal(typeof planner(turn(mockCommand.delay(1))), "function");
  assert.equal(typeof planner(turn('{"__mock__": oops')), "function", "an error to report");
  const recorded = mockCommandPlanner(engine({
    verbatim: true,
    exchanges: [{ trigger: any(), steps: [] }],
  }));
  assert.equal(recorded(turn(mockCommand.delay(1))), undefined);
});
