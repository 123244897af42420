/**
 * Usage and cost accounting with running totals: every figure a result or a read-only
 * request reports costs the same on the 10,000th turn as on the first.
 *
 * @module
 */

import {
  apiCallCost,
  type ApiCallUsage,
  modelUsage,
  type ModelUsageEntry,
} from "../builders/usage.ts";

/** The session's API calls, summed as they happen. */
export class UsageLedger {
  #totals: Record<string, ModelUsageEntry> = {};
  #since: Record<string, ModelUsageEntry> = {};
  #count = 0;
  #cost = 0;
  #tokens = 0;
  #lastContext = 0;
  #last?: ApiCallUsage;
  #resumed = false;
  /** Milliseconds the session spent waiting on the API (the results' `duration_api_ms`). */
  apiMs = 0;

  /**
   * Records one API call (an assistant message) made with `model`. A subagent's call counts in
   * the totals and the cost, not as the conversation's last call (its context).
   */
  add(call: ApiCallUsage, model: string, options: { subagent?: boolean } = {}): void {
    this.#count++;
    this.#cost += apiCallCost(model, call);
    this.#tokens += (call.inputTokens ?? 0) + (call.outputTokens ?? 0);
    if (!options.subagent) {
      this.#last = call;
      this.#lastContext = (call.inputTokens ?? 0) + (call.outputTokens ?? 0) +
        (call.cacheReadInputTokens ?? 0) + (call.cacheCreationInputTokens ?? 0);
    }
    const one = modelUsage([call], { model });
    for (const totals of [this.#totals, this.#since]) {
      for (const [name, entry] of Object.entries(one)) {
        const total = totals[name];
        if (!total) {
          totals[name] = { ...entry };
          continue;
        }
        total.inputTokens += entry.inputTokens;
        total.outputTokens += entry.outputTokens;
        total.cacheReadInputTokens += entry.cacheReadInputTokens;
        total.cacheCreationInputTokens += entry.cacheCreationInputTokens;
        total.cacheCreationEphemeral5mInputTokens += entry.cacheCreationEphemeral5mInputTokens;
        total.costUSD += entry.costUSD;
      }
    }
  }

  /**
   * Starts from what a resumed session had used (its last `modelUsage`): the totals and the
   * cost go on from there, and the context its last call ended with when known; the calls
   * since the last result do not.
   */
  restore(
    totals: Readonly<Record<string, ModelUsageEntry>>,
    { lastContext }: { lastContext?: number } = {},
  ): void {
    if (Object.keys(totals).length > 0) this.#resumed = true;
    // what a compaction of the resumed conversation starts from (its pre_tokens)
    if (lastContext !== undefined) this.#lastContext = lastContext;
    for (const [name, entry] of Object.entries(totals)) {
      this.#totals[name] = { ...entry };
      this.#cost += entry.costUSD;
    }
  }

  /**
   * The `modelUsage` of the calls since the last result (a result's
   * `model_usage_since_last_result`), and a fresh count from here.
   */
  takeSinceLastResult(): Record<string, ModelUsageEntry> {
    const since = this.#since;
    this.#since = {};
    return since;
  }

  /** The context the last API call ended with: its input and output tokens (0 before one). */
  get lastContext(): number {
    return this.#lastContext;
  }

  /** The last API call's usage, or `undefined` before one. */
  get lastCall(): ApiCallUsage | undefined {
    return this.#last;
  }

  /** The cumulative `modelUsage` of the session (a copy: later calls do not change it). */
  modelUsage(): Record<string, ModelUsageEntry> {
    const out: Record<string, ModelUsageEntry> = {};
    for (const [name, entry] of Object.entries(this.#totals)) out[name] = { ...entry };
    return out;
  }

  /** How many API calls the session made. */
  get calls(): number {
    return this.#count;
  }

  /**
   * Whether the conversation has messages from the model: an API call of this session, or of
   * the earlier run it resumed (`restore`).
   */
  get conversed(): boolean {
    return this.#count > 0 || this.#resumed;
  }

  /** The session's cost in USD so far. */
  get costUsd(): number {
    return this.#cost;
  }

  /** Input plus output tokens so far. */
  get tokens(): number {
    return this.#tokens;
  }
}
