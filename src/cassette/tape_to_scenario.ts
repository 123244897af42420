/**
 * `tapeToScenario`: a recording as an editable scenario file.
 *
 * @module
 */

import type {
  ConnectStepFile,
  ExchangeFile,
  ScenarioFile,
  StepFile,
  TriggerFile,
} from "../scenario/scenario_file.ts";
import { promptText } from "../scenario/prompt_text.ts";
import type { Frame } from "../wire/frame.ts";
import type { Tape } from "./tape.ts";

/** A scenario file converted from a tape: its exchanges always present. */
export type ConvertedScenario = ScenarioFile & { exchanges: ExchangeFile[] };

/** Options for {@linkcode tapeToScenario}. */
export interface TapeToScenarioOptions {
  /** The scenario's name (default: the tape header's `scenario`, or its source). */
  name?: string;
  /** Keep the recorded delays between frames (default `true`); `false` for none. */
  timing?: boolean;
}

/**
 * Turns a tape into a scenario file (the JSON format of `loadScenario`) that replays to the
 * same app messages: one exchange per prompt the app sent (an exact trigger), whose steps
 * are the CLI's frames as recorded (`emit`, with the recorded delays; its requests to the app
 * too, so permissions, hooks and MCP calls go to the app's callbacks), a `waitFor` where the
 * app answered one of them or sent a control request of its own mid-turn (an interrupt,
 * `set_model`, …, with the recorded answer in `answers`), and an `exit` when the process
 * failed. The scenario is
 * `verbatim`: the engine adds nothing of its own. Edit it like any scenario file.
 *
 * @example Converting a recording
 * ```ts
 * import { parseTape, tapeToScenario } from "@x/claude-mock/cassette";
 * import { scenarioFromJSON } from "@x/claude-mock";
 * const tape = parseTape([
 *   '{"format":"claude-mock-tape","version":1,"scenario":"hi"}',
 *   '{"t":0,"dir":"sdk->cli","frame":{"type":"user","message":{"role":"user","content":"hi"},"parent_tool_use_id":null}}',
 *   '{"t":40,"dir":"cli->sdk","frame":{"type":"result","subtype":"success","is_error":false,"result":"Hello"}}',
 *   '{"t":41,"end":{"code":0,"signal":null}}',
 * ].join("\n"));
 * const file = tapeToScenario(tape);
 * console.log(file.exchanges[0].on); // { exact: "hi" }
 * const scenario = scenarioFromJSON(file); // runs like any scenario
 * console.log(scenario.verbatim); // true
 * ```
 */
export function tapeToScenario(
  tape: Tape,
  options: TapeToScenarioOptions = {},
): ConvertedScenario {
  const keepTiming = options.timing ?? true;
  const name = options.name ?? tape.header.scenario ?? tape.source;
  const file: ConvertedScenario = {
    ...(name !== undefined ? { name: String(name) } : {}),
    verbatim: true,
    exchanges: [],
  };
  const answers: NonNullable<ScenarioFile["answers"]> = [];
  const onConnect: StepFile[] = [];
  const appRequests = new Map<string, Record<string, unknown>>();
  const cliRequests = new Set<string>();
  let initializeId: string | undefined;
  let current: ExchangeFile | undefined;
  let lastT = 0;
  const steps = (): StepFile[] => (current ? current.steps as StepFile[] : onConnect);
  const delayFor = (t: number): number => {
    const delay = Math.max(0, Math.round(t - lastT));
    lastT = t;
    return keepTiming ? delay : 0;
  };

  for (const entry of tape.entries) {
    if (entry.dir === "stderr") continue;
    if (entry.dir === "sdk->cli") {
      if (!("frame" in entry)) continue;
      const frame = entry.frame;
      if (frame.type === "user") {
        lastT = entry.t;
        current = { on: triggerFor(frame), steps: [] };
        file.exchanges.push(current);
      } else if (frame.type === "control_request") {
        const request = requestOf(frame);
        const id = typeof frame.request_id === "string" ? frame.request_id : "";
        if (request.subtype === "initialize") initializeId = id;
        else {
          appRequests.set(id, request);
          if (current) {
            steps().push({ waitFor: { contains: `"subtype":"${String(request.subtype)}"` } });
          }
        }
      } else if (frame.type === "control_response") {
        // the CLI's request was answered here: what follows may depend on the answer
        const id = String((frame.response as Record<string, unknown> | undefined)?.request_id);
        if (cliRequests.has(id)) steps().push({ waitFor: { contains: `"request_id":"${id}"` } });
      }
      continue;
    }
    if (!("frame" in entry)) {
      delayFor(entry.t);
      steps().push({ raw: entry.raw });
      continue;
    }
    const frame = entry.frame;
    if (frame.type === "control_response") {
      const response = (frame.response ?? {}) as Record<string, unknown>;
      const id = String(response.request_id ?? "");
      if (id === initializeId) {
        const body = response.response;
        if (body && typeof body === "object") {
          file.initialize = body as Record<string, unknown>;
        }
        continue;
      }
      const request = appRequests.get(id);
      if (request) {
        appRequests.delete(id);
        const { request_id: _id, ...rest } = request;
        answers.push({
          request: rest as { subtype: string },
          ...(response.subtype === "error"
            ? { error: String(response.error ?? "") }
            : isRecord(response.response)
            ? { response: response.response }
            : {}),
        });
        continue;
      }
    }
    if (frame.type === "control_request" && typeof frame.request_id === "string") {
      // sent with its recorded id, so a later cancel and the answer's wait refer to it
      cliRequests.add(frame.request_id);
    }
    const delay = delayFor(entry.t);
    steps().push(delay > 0 ? { emit: frame, delay } : { emit: frame });
  }
  const ending = tape.ending;
  if (ending && (ending.code !== 0 || ending.signal !== null) && file.exchanges.length > 0) {
    (file.exchanges.at(-1)!.steps as StepFile[]).push({ exit: ending.code ?? 1 });
  }
  if (onConnect.length > 0) file.onConnect = onConnect as ConnectStepFile[];
  if (answers.length > 0) file.answers = answers;
  return file;
}

function triggerFor(frame: Frame): TriggerFile {
  return { exact: promptText(frame) };
}

function requestOf(frame: Frame): Record<string, unknown> & { subtype?: unknown } {
  return isRecord(frame.request) ? frame.request : {};
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
