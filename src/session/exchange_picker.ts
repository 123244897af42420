/**
 * Picks the exchange that answers a user message: exchanges are tried in order, and the
 * first one that is still open (used fewer than `maxMatches` times, default once; always
 * with `repeat`) and whose trigger matches answers it.
 * Used exchanges are skipped in near-constant time, and `exact` and `contains` triggers are
 * looked up in an index (a map, and one automaton over the prompt) rather than tried one by
 * one: picking the last of 10,000 exchanges costs what picking the first does. It also keeps how often each exchange answered and
 * the first prompts of the session, so messages can name the closest candidate.
 *
 * @module
 */

import type { Exchange, Scenario } from "../scenario/scenario.ts";
import type { UserFrame } from "../wire/frame.ts";
import { closestTrigger } from "./closest_exchange.ts";
import { TurnFailure } from "./turn_state.ts";
import { type TriggerIndex, triggerIndex } from "./_trigger_index.ts";

/** The exchange that answers a message. */
export interface PickedExchange {
  /** The exchange. */
  exchange: Exchange;
  /** Its index in the scenario. */
  index: number;
  /** The trigger's RegExp match, when it has one. */
  match?: RegExpExecArray;
}

/** A user message the picker saw: its turn (0 for the first), text and exchange (-1: none). */
export interface SeenPrompt {
  /** 0 for the session's first turn. */
  turn: number;
  /** The prompt text (cut to 500 characters). */
  text: string;
  /** The index of the exchange that answered it, or -1. */
  index: number;
}

/** How many open triggers an unmatched-message error lists. */
const LISTED = 10;
/** How many prompts are kept for messages (the first ones of the session). */
const KEPT_PROMPTS = 200;

/** The scenario's exchanges, and which are used. */
export class ExchangePicker {
  #exchanges: readonly Exchange[];
  /** `#next[i]`: the smallest open index >= i is found by following links (path halving). */
  #next: Int32Array;
  /** How often each exchange answered (allocated on first use). */
  #counts?: Float64Array;
  #invocation: number;
  #label: string;
  #prompts: SeenPrompt[] = [];
  #unmatched = 0;
  #index?: TriggerIndex;
  #cursors?: Map<number[], number>;
  #otherNext?: Int32Array;

  /**
   * Starts with every exchange open, except those scripted for another `invocation` of the
   * binary (default 1).
   */
  constructor(scenario: Scenario, options: { invocation?: number } = {}) {
    this.#exchanges = scenario.exchanges;
    const n = this.#exchanges.length;
    this.#next = new Int32Array(n + 1);
    const invocation = options.invocation ?? 1;
    this.#invocation = invocation;
    for (let i = 0; i <= n; i++) {
      const only = this.#exchanges[i]?.invocation;
      this.#next[i] = only !== undefined && only !== invocation ? i + 1 : i;
    }
    this.#label = scenario.name ? ` '${scenario.name}'` : "";
  }

  /**
   * The first open exchange whose trigger matches `text`, marked used unless it repeats.
   * A trigger that throws fails the turn with an error naming the exchange and trigger.
   * With `turn`, the prompt is kept for messages (and counted when nothing matched).
   */
  pick(text: string, input: UserFrame, turn?: number): PickedExchange | undefined {
    const n = this.#exchanges.length;
    // `exact` and `contains` triggers are looked up, not tried: the first open exchange they
    // point at costs the same wherever it is; the other triggers before it are tried in order
    const index = this.#index ??= triggerIndex(this.#exchanges);
    let best = n;
    const exactList = index.exact.get(text.trim());
    if (exactList) best = this.#firstOpen(exactList);
    index.needles?.scan(text, (id) => {
      best = Math.min(best, this.#firstOpen(index.byNeedle[id]));
    });
    const others = index.others;
    let chosen = best < n ? best : -1;
    let tried = false;
    for (
      let p = this.#findOther(0);
      p < others.length && others[p] < best;
      p = this.#findOther(p + 1)
    ) {
      const i = others[p];
      let matched: boolean;
      try {
        matched = this.#exchanges[i].trigger.test(text, input);
      } catch (error) {
        throw new TurnFailure(
          `claude-mock: the trigger of ${this.describe(i)} threw while matching user message ${
            JSON.stringify(truncate(text, 200))
          }: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (matched) {
        chosen = i;
        tried = true;
        break;
      }
    }
    if (chosen >= 0) {
      const exchange = this.#exchanges[chosen];
      const counts = this.#counts ??= new Float64Array(n);
      counts[chosen]++;
      if (!exchange.repeat && counts[chosen] >= (exchange.maxMatches ?? 1)) this.#close(chosen);
      let match: RegExpExecArray | undefined;
      if (tried) {
        try {
          match = exchange.trigger.exec?.(text) ?? undefined;
        } catch {
          match = undefined;
        }
      }
      if (turn !== undefined) this.#keep(text, turn, chosen);
      return { exchange, index: chosen, match };
    }
    if (turn !== undefined) {
      this.#unmatched++;
      this.#keep(text, turn, -1);
    }
    return undefined;
  }

  /** The first open exchange of an index list (`n` when none): used ones are passed for good. */
  #firstOpen(list: number[]): number {
    const cursors = this.#cursors ??= new Map();
    let c = cursors.get(list) ?? 0;
    while (c < list.length && this.#next[list[c]] !== list[c]) c++;
    cursors.set(list, c);
    return c < list.length ? list[c] : this.#exchanges.length;
  }

  /** The first position >= p of an open exchange in the index's list of other triggers. */
  #findOther(p: number): number {
    const next = this.#otherNext ??= this.#makeOtherNext();
    while (next[p] !== p) {
      next[p] = next[next[p]];
      p = next[p];
    }
    return p;
  }

  #makeOtherNext(): Int32Array {
    const others = this.#index!.others;
    const next = new Int32Array(others.length + 1);
    for (let p = 0; p <= others.length; p++) {
      next[p] = p < others.length && this.#next[others[p]] !== others[p] ? p + 1 : p;
    }
    return next;
  }

  /** Marks exchange `i` used up. */
  #close(i: number): void {
    this.#next[i] = i + 1;
    if (this.#otherNext) {
      const others = this.#index!.others;
      // its position in the list of other triggers, if it is one (the list is sorted)
      let lo = 0;
      let hi = others.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (others[mid] === i) {
          this.#otherNext[mid] = mid + 1;
          break;
        }
        if (others[mid] < i) lo = mid + 1;
        else hi = mid - 1;
      }
    }
  }

  /** `exchange 2 (contains "x")`. */
  describe(index: number): string {
    const exchange = this.#exchanges[index];
    return `exchange ${index + 1} (${exchange?.trigger.description ?? "?"})`;
  }

  /** How often exchange `index` answered. */
  used(index: number): number {
    return this.#counts?.[index] ?? 0;
  }

  /** Whether exchange `index` answers in this run (not scripted for another invocation). */
  active(index: number): boolean {
    const only = this.#exchanges[index]?.invocation;
    return only === undefined || only === this.#invocation;
  }

  /** The first prompts of the session, with the exchange that answered each. */
  prompts(): readonly SeenPrompt[] {
    return this.#prompts;
  }

  /** How many user messages no exchange matched. */
  get unmatchedCount(): number {
    return this.#unmatched;
  }

  /**
   * `exchanges[1] on contains "x" (used 1 of 1 times)`: the exchange, its trigger and how
   * much of it is used.
   */
  describeUse(index: number): string {
    const exchange = this.#exchanges[index];
    const used = this.used(index);
    const only = exchange.invocation;
    const use = exchange.repeat
      ? `repeats, used ${used} time${used === 1 ? "" : "s"}`
      : `used ${used} of ${exchange.maxMatches ?? 1} times`;
    const run = this.active(index) ? "" : `; only in invocation ${only}`;
    return `exchanges[${index}] on ${exchange.trigger.description} (${use}${run})`;
  }

  /** Whether exchange `index` cannot answer anymore (used up). */
  usedUp(index: number): boolean {
    const exchange = this.#exchanges[index];
    return !exchange.repeat && this.used(index) >= (exchange.maxMatches ?? 1);
  }

  /**
   * `Closest: exchanges[1] on contains "x" (used 1 of 1 times)`, for a prompt no open
   * exchange matched; "" when no exchange comes close. A used-up exchange whose trigger
   * matches says so, and how to let it answer more.
   */
  closestText(text: string, input?: UserFrame): string {
    const n = this.#exchanges.length;
    const closest = closestTrigger((i) => this.#exchanges[i].trigger, text, {
      order: this.#order(n),
      input,
    });
    if (!closest) return "";
    const i = closest.index;
    let hint = "";
    if (closest.distance === 0 && !this.active(i)) {
      hint = ": it matches, but answers only in another run of the binary";
    } else if (closest.distance === 0 && this.usedUp(i)) {
      hint = ": it matches, but is used up (.times(n) or .repeat() lets it answer more)";
    }
    return `Closest: ${this.describeUse(i)}${hint}`;
  }

  /** The error text for a user message no open exchange matches. */
  unmatchedMessage(text: string, turn: number, input?: UserFrame): string {
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
      ? `every exchange of the scenario was already used (${n} exchange${n === 1 ? "" : "s"})`
      : "the scenario has no exchanges";
    const closest = n > 0 ? this.closestText(text, input) : "";
    // the turn the CLI starts when a background subagent finished
    const notice = text.includes("<task-notification>")
      ? ". This is the CLI's notification that a background subagent finished: answer it with " +
        'an exchange on "<task-notification>"'
      : "";
    return `claude-mock: no exchange of scenario${this.#label} matched user message ${
      JSON.stringify(truncate(text, 200))
    } (turn ${turn + 1}): ${expected}${notice}${closest ? `. ${closest}` : ""}`;
  }

  /** Open exchanges first (they could have answered), then the others. */
  *#order(n: number): Generator<number> {
    for (let i = this.#find(0); i < n; i = this.#find(i + 1)) yield i;
    for (let i = 0; i < n; i++) if (this.#find(i) !== i) yield i;
  }

  #keep(text: string, turn: number, index: number): void {
    if (this.#prompts.length < KEPT_PROMPTS) {
      this.#prompts.push({ turn, text: truncate(text, 500), index });
    }
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
