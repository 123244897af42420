/**
 * The scenario a run of the fake binary plays: a scenario file (`--scenario`,
 * `CLAUDE_MOCK_SCENARIO`), with a named failure before each exchange (`--failure`,
 * `CLAUDE_MOCK_FAILURE`), or the default, which answers every prompt. Internal.
 *
 * @module
 */

import { nearest } from "../scenario/_checks.ts";
import { any } from "../scenario/matcher.ts";
import { FAILURE_NAMES, type FailureName, isFailureName } from "../scenario/named_failures.ts";
import type { Scenario } from "../scenario/scenario.ts";
import type { Step, StepSource } from "../scenario/step.ts";
import type { CliIO } from "./cli_io.ts";
import { CliUsageError, type ParsedArgv } from "./parse_argv.ts";

/** The default answer of the default scenario (the real CLI's answer to `-p hello`). */
export const DEFAULT_REPLY = "Hello! How can I help?";

/** `--scenario` / `CLAUDE_MOCK_SCENARIO`, `--failure` / `CLAUDE_MOCK_FAILURE`, or the default. */
export async function chooseScenario(
  parsed: ParsedArgv,
  io: Pick<CliIO, "env" | "cwd">,
): Promise<Scenario> {
  const file = parsed.mock.scenario ?? io.env.CLAUDE_MOCK_SCENARIO;
  const failure = parsed.mock.failure ?? io.env.CLAUDE_MOCK_FAILURE;
  if (failure !== undefined && !isFailureName(failure)) {
    const source = parsed.mock.failure !== undefined ? "--failure" : "CLAUDE_MOCK_FAILURE";
    const near = nearest(failure, FAILURE_NAMES);
    throw new CliUsageError(
      `claude-mock: unknown failure '${failure}' (in ${source}` +
        (near ? `; did you mean '${near}'?)` : `); expected one of ${FAILURE_NAMES.join(", ")}`),
    );
  }
  let scenario: Scenario;
  if (file !== undefined && file !== "") {
    const path = file.startsWith("/") || /^[a-z]+:/i.test(file) ? file : `${io.cwd}/${file}`;
    // loaded when a scenario is named: the default needs none of the file format
    const { loadScenario } = await import("../scenario/load_scenario.ts");
    scenario = await loadScenario(path);
  } else {
    scenario = defaultScenario();
  }
  return failure === undefined ? scenario : withFailure(scenario, failure as FailureName);
}

/** The scenario with no file: every prompt gets {@linkcode DEFAULT_REPLY}. */
export function defaultScenario(): Scenario {
  // what `new ScenarioBuilder({ name: "default" }).on(any()).repeat().respond(DEFAULT_REPLY)
  // .build()` makes (a test keeps the two equal), without running the builder at every start
  return {
    name: "default",
    onConnect: [],
    exchanges: [{
      trigger: any(),
      steps: [{ kind: "message", parts: [{ type: "text", text: DEFAULT_REPLY }] }],
      repeat: true,
    }],
  };
}

/** `scenario` with the named failure before each exchange's steps. */
function withFailure(scenario: Scenario, name: FailureName): Scenario {
  const failure: Step = { kind: "failure", name };
  const prefix = (steps: StepSource): StepSource =>
    typeof steps === "function"
      ? async function* (turn) {
        yield failure;
        yield* await steps(turn);
      }
      : [failure, ...steps];
  return {
    ...scenario,
    exchanges: scenario.exchanges.map((e) => ({ ...e, steps: prefix(e.steps) })),
  };
}
