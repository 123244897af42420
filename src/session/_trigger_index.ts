/**
 * An index of a scenario's `exact` and `contains` triggers, so picking the exchange for a
 * prompt costs the same whether it is the first or the last of 10,000: `exact` texts in a
 * map, `contains` needles in one Aho–Corasick automaton (every needle found in one pass over
 * the prompt). Other triggers (RegExps, globs, predicates, `any`) are listed in order and
 * tried as before. Built once per scenario and shared by its sessions. Internal.
 *
 * @module
 */

import type { Exchange } from "../scenario/scenario.ts";
import { textKeyOf } from "../scenario/matcher.ts";

/** The index of one scenario's exchanges. */
export interface TriggerIndex {
  /** `exact` texts (trimmed) → the exchanges with that trigger, in order. */
  readonly exact: Map<string, number[]>;
  /** The `contains` automaton, or `undefined` when no exchange has a `contains` trigger. */
  readonly needles?: NeedleAutomaton;
  /** For each needle id, the exchanges whose trigger contains it, in order. */
  readonly byNeedle: number[][];
  /** The exchanges whose trigger is not indexed, in order. */
  readonly others: number[];
}

const INDEXES = new WeakMap<readonly Exchange[], TriggerIndex>();

/** The index of `exchanges` (made on first use, kept while the exchanges live). */
export function triggerIndex(exchanges: readonly Exchange[]): TriggerIndex {
  let index = INDEXES.get(exchanges);
  if (!index) INDEXES.set(exchanges, index = buildIndex(exchanges));
  return index;
}

function buildIndex(exchanges: readonly Exchange[]): TriggerIndex {
  const exact = new Map<string, number[]>();
  const needleIds = new Map<string, number>();
  const byNeedle: number[][] = [];
  const others: number[] = [];
  exchanges.forEach((exchange, i) => {
    const key = textKeyOf(exchange.trigger);
    if (key?.kind === "exact") {
      let list = exact.get(key.text);
      if (!list) exact.set(key.text, list = []);
      list.push(i);
    } else if (key?.kind === "contains" && key.text !== "") {
      let id = needleIds.get(key.text);
      if (id === undefined) {
        needleIds.set(key.text, id = byNeedle.length);
        byNeedle.push([]);
      }
      byNeedle[id].push(i);
    } else others.push(i);
  });
  const needles = needleIds.size > 0 ? new NeedleAutomaton([...needleIds.keys()]) : undefined;
  return { exact, byNeedle, others, ...(needles ? { needles } : {}) };
}

/** Aho–Corasick over UTF-16 code units: which needles occur in a text, in one pass. */
class NeedleAutomaton {
  /** Per state: its transitions by code unit. */
  #next: Map<number, number>[] = [new Map()];
  #fail: number[] = [0];
  /** Per state: the needle ending exactly here (-1: none). */
  #ends: number[] = [-1];
  /** Per state: the nearest state on its fail chain where a needle ends (-1: none). */
  #dict: number[] = [-1];

  /** Builds the automaton of `needles` (needle `i` is reported as `i`). */
  constructor(needles: readonly string[]) {
    needles.forEach((needle, id) => {
      let state = 0;
      for (let i = 0; i < needle.length; i++) {
        const c = needle.charCodeAt(i);
        let to = this.#next[state].get(c);
        if (to === undefined) {
          to = this.#next.length;
          this.#next.push(new Map());
          this.#fail.push(0);
          this.#ends.push(-1);
          this.#dict.push(-1);
          this.#next[state].set(c, to);
        }
        state = to;
      }
      this.#ends[state] = id;
    });
    const queue: number[] = [];
    for (const to of this.#next[0].values()) queue.push(to);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [c, to] of this.#next[state]) {
        let f = this.#fail[state];
        while (f !== 0 && !this.#next[f].has(c)) f = this.#fail[f];
        const target = this.#next[f].get(c);
        this.#fail[to] = target !== undefined && target !== to ? target : 0;
        const fail = this.#fail[to];
        this.#dict[to] = this.#ends[fail] >= 0 ? fail : this.#dict[fail];
        queue.push(to);
      }
    }
  }

  /** Calls `found(id)` once for each needle that occurs in `text`. */
  scan(text: string, found: (id: number) => void): void {
    const seen = new Set<number>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = this.#next[state].get(c);
      while (to === undefined && state !== 0) {
        state = this.#fail[state];
        to = this.#next[state].get(c);
      }
      state = to ?? 0;
      for (let s = this.#ends[state] >= 0 ? state : this.#dict[state]; s > 0; s = this.#dict[s]) {
        const id = this.#ends[s];
        if (!seen.has(id)) {
          seen.add(id);
          found(id);
        }
      }
    }
  }
}
