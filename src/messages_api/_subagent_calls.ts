/**
 * The subagents' calls of a scenario Messages API: each Agent tool use the scenario served
 * registers its subagent's replies (from its scripted frames) under its prompt, and a subagent's
 * call is answered with its next reply; a subagent's own Agent call registers a nested subagent
 * when the reply that makes it is served. Internal.
 *
 * @internal
 * @module
 */

import { AGENT_RUN, type AgentRun, subagentReplies } from "../builders/_agent_run.ts";
import type { BuildContext } from "../builders/build_context.ts";
import type { ToolCall } from "../builders/tools.ts";
import { isToolCall } from "../scenario/step.ts";
import { show } from "../wire/_show.ts";
import type { AssistantContentBlock, Frame } from "../wire/frame.ts";
import type { LocatedRequest } from "./_locate_request.ts";
import { replyFor } from "./_reply_body.ts";
import { apiError, type Decision } from "./_decision.ts";

/** An Agent tool call whose subagent's frames are scripted. */
export type ScriptedAgent = Pick<ToolCall, "result"> & {
  frames: (ctx: BuildContext) => Iterable<Frame>;
};

interface SubagentRun {
  replies: AssistantContentBlock[][];
  label: string;
  /** Its own tool calls by tool use id (a nested Agent call starts a subagent of its own). */
  calls: ReadonlyMap<string, unknown>;
}

/** How many characters of a prompt an error message quotes. */
const QUOTED = 200;

/** The subagents served so far, by prompt, and the answers to their calls. */
export class SubagentCalls {
  readonly #ctx: BuildContext;
  readonly #paths: { from: string; to: string };
  readonly #runs = new Map<string, SubagentRun>();

  /** Calls answered in `ctx`, the scenario's cwd `paths.from` replaced by the CLI's `paths.to`. */
  constructor(ctx: BuildContext, paths: { from: string; to: string }) {
    this.#ctx = ctx;
    this.#paths = paths;
  }

  /** The subagent an Agent tool use starts, served by its prompt (`where`: for messages). */
  register(
    block: { id: string; name: string; input: Record<string, unknown> },
    scripted: ScriptedAgent,
    where: string,
  ): void {
    const prompt = block.input.prompt;
    if (typeof prompt !== "string") return;
    const replies = subagentReplies(
      scripted.frames(this.#ctx),
      block.id,
      scripted.result.toolUseResult,
    );
    const run = (scripted as { [AGENT_RUN]?: AgentRun })[AGENT_RUN];
    this.#runs.set(this.#rewrite(prompt), {
      replies,
      label: `the subagent of ${block.name} ${block.id} (${where})`,
      calls: new Map((run?.tools ?? []).map((t) => [t.block.id, t])),
    });
  }

  /**
   * A subagent's call: its next reply (a nested subagent registered when the reply makes an
   * Agent call), or a 400 naming what is missing.
   */
  answer(located: LocatedRequest): Decision {
    const run = this.#runs.get(located.prompt);
    if (!run) {
      const known = [...this.#runs.keys()].map(quote);
      return apiError(
        400,
        `claude-mock: a subagent call with the prompt ${
          quote(located.prompt)
        } matches no Agent tool use ${
          known.length
            ? `the scenario served (expected one of ${known.join(", ")})`
            : "of the scenario served so far"
        }`,
      );
    }
    const call = located.replies.length;
    const blocks = run.replies[call];
    if (!blocks) {
      return apiError(
        400,
        `claude-mock: ${run.label} has no reply for its API call ${
          call + 1
        }: its frames give ${run.replies.length}`,
      );
    }
    this.#registerNested(blocks, run);
    return {
      kind: "reply",
      reply: replyFor(this.#ctx, blocks, {
        model: located.model ?? this.#ctx.model,
        paths: this.#paths,
      }),
      stream: located.stream,
      delayMs: 0,
    };
  }

  /** The nested subagents a subagent's reply starts (its own Agent tool uses). */
  #registerNested(blocks: readonly AssistantContentBlock[], run: SubagentRun): void {
    for (const block of blocks) {
      if (block.type !== "tool_use" || (block.name !== "Agent" && block.name !== "Task")) continue;
      const scripted = run.calls.get(block.id);
      if (!scripted || !isToolCall(scripted) || typeof scripted.frames !== "function") continue;
      this.register(block, scripted as ScriptedAgent, run.label);
    }
  }

  #rewrite(s: string): string {
    return this.#paths.from ? s.split(this.#paths.from).join(this.#paths.to) : s;
  }
}

/** A prompt as an error message quotes it. */
export function quote(s: string): string {
  return show(s, { max: QUOTED });
}
