/**
 * The options of `ExchangeBuilder`'s step methods.
 *
 * @module
 */

import type { MessagePart, StepSource } from "./step.ts";

/** What `respond` accepts: text, a content block or tool call, or several. */
export type ResponseContent = string | MessagePart | MessagePart[];

/** How one assistant message is reported and streamed. */
export interface MessageOptions {
  /** Delay before the message (ms, before the speed factor). */
  delay?: number;
  /** Output tokens the message reports (default: estimated from its content). */
  outputTokens?: number;
  /** Size in characters of its text and thinking deltas when streaming (default 24). */
  chunkSize?: number;
}

/** Options for `ExchangeBuilder.respond`. */
export interface RespondOptions extends MessageOptions {
  /** A thinking block before the content. */
  thinking?: string;
  /**
   * Explicit deltas when streaming: for each text or thinking block in order, its pieces
   * (they must join back into the block's text; an empty list keeps the default split).
   */
  chunks?: string[][];
}

/** Options shared by the `uses*` tool helpers. */
export interface UsesOptions extends MessageOptions {
  /**
   * Explicit `input_json_delta` fragments of the tool use's input when streaming (they
   * must join back into the input's JSON).
   */
  inputChunks?: string[];
  /** Text the assistant says in the same message before using the tool. */
  say?: string;
  /** A thinking block the message starts with (before `say` and the tool use). */
  thinking?: string;
  /** Overrides the permission rules for this tool use: run, ask the SDK, or deny. */
  permission?: "allow" | "ask" | "deny";
  /**
   * What happens when the tool use is denied (by the SDK, a hook or a rule): a text reply,
   * or steps. They replace the rest of the exchange. Default: the exchange goes on.
   */
  ifDenied?: string | StepSource;
  /**
   * The tool runs until the app interrupts the session (the SDK's `interrupt()`): its result
   * never comes. The CLI then writes what the real one writes for a tool stopped while running
   * (for a subagent's tool: the Agent call rejected, the task killed). Waiting is real time,
   * bounded like a control answer: without an interrupt the turn fails, naming the tool.
   */
  untilInterrupt?: boolean;
}

/** One question of `ExchangeBuilder.usesAskUserQuestion`. */
export interface AskUserQuestionItem {
  /** The question. */
  question: string;
  /** A short header (a chip label). */
  header: string;
  /** The choices: labels, or labels with descriptions. */
  options: Array<string | { label: string; description: string }>;
  /** Whether several choices can be picked (default false). */
  multiSelect?: boolean;
}

/**
 * `usesTask`'s own options; `tools` adds the subagent's tool uses to a builder `B` (an
 * `ExchangeBuilder`).
 *
 * @example A subagent that reads a file
 * ```ts
 * import { ScenarioBuilder } from "@x/claude-mock";
 * const scenario = new ScenarioBuilder()
 *   .on("review")
 *   .usesTask("Review the notes", {
 *     prompt: "Review notes.txt.",
 *     result: "Fine.",
 *     tools: (t) => t.usesRead("/home/user/project/notes.txt", { content: "notes" }),
 *   })
 *   .build();
 * console.log(scenario.exchanges[0].steps.length); // 1
 * ```
 */
export interface TaskOptions<B> {
  /** What the subagent is asked. */
  prompt: string;
  /** Its report. */
  result: string;
  /** Its type (default `general-purpose`): a built-in agent or one the app defines. */
  subagentType?: string;
  /**
   * Ask for it to run in the background (`run_in_background: true`): the call returns at once,
   * the subagent runs after the turn, then the CLI's notification turn (answer it with an
   * exchange on `"<task-notification>"`).
   */
  runInBackground?: boolean;
  /** Adds the subagent's own tool uses with the `uses*` helpers. */
  tools?: (tools: B) => unknown;
}
