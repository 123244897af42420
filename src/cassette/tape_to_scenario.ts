/**
 * `tapeToScenario`: a recording as an editable scenario file.
 *
 * @module
 */

import { requireTape } from "./tape.ts";
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
  requireTape(tape, "Cannot convert tape to a scenario");
  const name = options.name ?? tape.header.scenario ?? tape.source;
  const conversion: Conversion = {
    file: {
      ...(name !== undefined ? { name: String(name) } : {}),
      verbatim: true,
      exchanges: [],
    },
    answers: [],
    onConnect: [],
    appRequests: new Map(),
    cliRequests: new Set(),
    initializeId: undefined,
    current: undefined,
    lastT: 0,
    keepTiming: options.timing ?? true,
  };
  for (const entry of tape.entries) {
    if (entry.dir === "stderr") continue;
    if (entry.dir === "sdk->cli") {
      if ("frame" in entry) fromApp(conversion, entry);
    } else if (!("frame" in entry)) {
      delayFor(conversion, entry.t);
      stepsOf(conversion).push({ raw: entry.raw });
    } else fromCli(conversion, entry);
  }
  const { file, onConnect, answers } = conversion;
  const ending = tape.ending;
  if (ending && (ending.code !== 0 || ending.signal !== null) && file.exchanges.length > 0) {
    (file.exchanges.at(-1)!.steps as StepFile[]).push({ exit: ending.code ?? 1 });
  }
  if (onConnect.length > 0) file.onConnect = onConnect as ConnectStepFile[];
  if (answers.length > 0) file.answers = answers;
  return file;
}

/** A tape being converted: the scenario so far, and what the frames read so far left open. */
interface Conversion {
  file: ConvertedScenario;
  /** The app's answers to the CLI's control requests. */
  answers: NonNullable<ScenarioFile["answers"]>;
  /** The steps before the first prompt. */
  onConnect: StepFile[];
  /** The app's control requests not answered yet, by request id. */
  appRequests: Map<string, Record<string, unknown>>;
  /** The ids of the CLI's control requests. */
  cliRequests: Set<string>;
  initializeId: string | undefined;
  /** The exchange of the latest prompt. */
  current: ExchangeFile | undefined;
  /** The time of the latest frame that took time. */
  lastT: number;
  keepTiming: boolean;
}

/** Where steps go now: the latest prompt's exchange, or before the first. */
function stepsOf(conversion: Conversion): StepFile[] {
  return conversion.current ? conversion.current.steps as StepFile[] : conversion.onConnect;
}

/** The delay from the previous frame to one at `t` (0 without timing). */
function delayFor(conversion: Conversion, t: number): number {
  const delay = Math.max(0, Math.round(t - conversion.lastT));
  conversion.lastT = t;
  return conversion.keepTiming ? delay : 0;
}

/** A frame the app sent: a prompt opens an exchange; a control request or answer is waited for. */
function fromApp(conversion: Conversion, entry: { t: number; frame: Frame }): void {
  const frame = entry.frame;
  if (frame.type === "user") {
    conversion.lastT = entry.t;
    conversion.current = { on: triggerFor(frame), steps: [] };
    conversion.file.exchanges.push(conversion.current);
  } else if (frame.type === "control_request") {
    const request = requestOf(frame);
    const id = typeof frame.request_id === "string" ? frame.request_id : "";
    if (request.subtype === "initialize") conversion.initializeId = id;
    else {
      conversion.appRequests.set(id, request);
      if (conversion.current) {
        stepsOf(conversion).push({
          waitFor: { contains: `"subtype":"${String(request.subtype)}"` },
        });
      }
    }
  } else if (frame.type === "control_response") {
    // the CLI's request was answered here: what follows may depend on the answer
    const id = String((frame.response as Record<string, unknown> | undefined)?.request_id);
    if (conversion.cliRequests.has(id)) {
      stepsOf(conversion).push({ waitFor: { contains: `"request_id":"${id}"` } });
    }
  }
}

/**
 * A frame the CLI sent: an answer to `initialize` is the scenario's, an answer to the app's
 * request is an answer; anything else is emitted as it was, after its delay.
 */
function fromCli(conversion: Conversion, entry: { t: number; frame: Frame }): void {
  const frame = entry.frame;
  if (frame.type === "control_response" && answered(conversion, frame)) return;
  if (frame.type === "control_request" && typeof frame.request_id === "string") {
    // sent with its recorded id, so a later cancel and the answer's wait refer to it
    conversion.cliRequests.add(frame.request_id);
  }
  const delay = delayFor(conversion, entry.t);
  stepsOf(conversion).push(delay > 0 ? { emit: frame, delay } : { emit: frame });
}

/** Takes the CLI's answer to `initialize` or to an app's request; false for any other. */
function answered(conversion: Conversion, frame: Frame): boolean {
  const response = (frame.response ?? {}) as Record<string, unknown>;
  const id = String(response.request_id ?? "");
  if (id === conversion.initializeId) {
    const body = response.response;
    if (body && typeof body === "object") {
      conversion.file.initialize = body as Record<string, unknown>;
    }
    return true;
  }
  const request = conversion.appRequests.get(id);
  if (!request) return false;
  conversion.appRequests.delete(id);
  const { request_id: _id, ...rest } = request;
  conversion.answers.push({
    request: rest as { subtype: string },
    ...(response.subtype === "error"
      ? { error: String(response.error ?? "") }
      : isRecord(response.response)
      ? { response: response.response }
      : {}),
  });
  return true;
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
