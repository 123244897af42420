/**
 * Picks the exchange that answers a user message: exchanges are tried in order, and the
 * first one that is still open (used fewer than `maxMatches` times, default once; always
 * with `repeat`) and whose trigger matches answers it.
 * Used exchanges are skipped in near-constant time, so a 10,000-exchange scenario costs a
 * turn no more than a 10-exchange one.
 *
 * @module
 */

import type { Exchange, Scenario } from "../scenario/scenario.ts";
import type { UserFrame } from "../wire/frame.ts";
import { TurnFailure } from "./turn_state.ts";

/** The exchange that answers a message. */
export interface PickedExchange {
  /** The exchange. */
  exchange: Exchange;
  /** Its index in the scenario. */
  index: number;
  /** The trigger's RegExp match, when it has one. */
  match?: RegExpExecArray;
}

/** How many open triggers an unmatched-message error lists. */
const LISTED = 10;

/** The scenario's exchanges, and which are used. */
export class ExchangePicker {
  #exchanges: readonly Exchange[];
  /** `#next[i]`: the smallest open index >= i is found by following links (path halving). */
  #next: Int32Array;
  /** How often each exchange answered (allocated on first use). */
  #counts?: Float64Array;
  #label: string;

  /**
   * Starts with every exchange open, except those scripted for another `invocation` of the
   * binary (default 1).
   */
  constructor(scenario: Scenario, options: { invocation?: number } = {}) {
    this.#exchanges = scenario.exchanges;
    const n = this.#exchanges.length;
    this.#next = new Int32Array(n + 1);
    const invocation = options.invocation ?? 1;
    for (let i = 0; i <= n; i++) {
      const only = this.#exchanges[i]?.invocation;
      this.#next[i] = only !== undefined && only !== invocation ? i + 1 : i;
    }
    this.#label = scenario.name ? ` '${scenario.name}'` : "";
  }

  /**
   * The first open exchange whose trigger matches `text`, marked used unless it repeats.
   * A trigger that throws fails the turn with an error naming the exchange and trigger.
   */
  pick(text: string, input: UserFrame): PickedExchange | undefined {
    const n = this.#exchanges.length;
    for (let i = this.#find(0); i < n; i = this.#find(i + 1)) {
      const exchange = this.#exchanges[i];
      let matched: boolean;
      try {
        matched = exchange.trigger.test(text, input);
      } catch (error) {
        throw new TurnFailure(
          `claude-mock: the trigger of ${this.describe(i)} threw while matching user message ${
            JSON.stringify(truncate(text, 200))
          }: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (!matched) continue;
      if (!exchange.repeat) {
        const max = exchange.maxMatches ?? 1;
        const counts = this.#counts ??= new Float64Array(n);
        if (++counts[i] >= max) this.#next[i] = i + 1;
      }
      let match: RegExpExecArray | undefined;
      try {
        match = exchange.trigger.exec?.(text) ?? undefined;
      } catch {
        match = undefined;
      }
      return { exchange, index: i, match };
    }
    return undefined;
  }

  /** `exchange 2 (contains "x")`. */
  describe(index: number): string {
    const exchange = this.#exchanges[index];
    return `exchange ${index + 1} (${exchange?.trigger.description ?? "?"})`;
  }

  /** The error text for a user message no open exchange matches. */
  unmatchedMessage(text: string, turn: number): string {
    const n = this.#exchanges.length;
    const open: string[] = [];
    let more = 0;
    for (let i = this.#find(0); i < n; i = this.#find(i + 1)) {
      if (open.length < LISTED) open.push(this.#exchanges[i].trigger.description);
      else more++;
    }
    const expected = open.length > 0
      ? `expected a message that ${open.join(", or ")}${
        more > 0 ? ` (or ${more} more open exchange${more === 1 ? "" : "s"})` : ""
      }`
      : n > 0
      ? "every exchange of the scenario was already used"
      : "the scenario has no exchanges";
    return `claude-mock: no exchange of scenario${this.#label} matched user message ${
      JSON.stringify(truncate(text, 200))
    } (turn ${turn + 1}): ${expected}`;
  }

  #find(i: number): number {
    const next = this.#next;
    while (next[i] !== i) {
      next[i] = next[next[i]];
      i = next[i];
    }
    return i;
  }
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n) + "…" : s;
}
