/**
 * Walks a turn's steps (an array, or what a step function produced, sync or async) one at a
 * time, and can look ahead for the next message step: a failure that breaks a stream bills
 * what the broken stream of the reply after it carried, as the Messages API streams that
 * reply.
 *
 * @module
 */

import type { MessageStep, Step } from "../scenario/step.ts";

/** The most steps looked ahead for a message (a generator that never yields one is a bug). */
const LOOKAHEAD_LIMIT = 10_000;

function isObject(value: unknown): value is Step {
  return typeof value === "object" && value !== null;
}

/** One pass over a step source, with lookahead. */
export class StepCursor {
  readonly #iterator: Iterator<Step> | AsyncIterator<Step>;
  /** The steps are a plain iterable (an array, a generator): taken without a promise. */
  readonly #sync: boolean;
  readonly #ahead: Step[] = [];
  #done = false;

  /**
   * A cursor over `steps`.
   *
   * @example Looking ahead for the next message
   * ```ts
   * import { StepCursor } from "./step_cursor.ts";
   * const cursor = new StepCursor([
   *   { kind: "failure", name: "stream_cut_recovered" },
   *   { kind: "delay", ms: 5 },
   *   { kind: "message", parts: [] },
   * ]);
   * console.log((await cursor.next()).value?.kind, (await cursor.nextMessage())?.kind); // failure message
   * console.log((await cursor.next()).value?.kind); // delay
   * ```
   */
  constructor(steps: Iterable<Step> | AsyncIterable<Step>) {
    this.#sync = !(Symbol.asyncIterator in steps);
    this.#iterator = this.#sync
      ? (steps as Iterable<Step>)[Symbol.iterator]()
      : (steps as AsyncIterable<Step>)[Symbol.asyncIterator]();
  }

  /**
   * The next step (`done` at the end): at once when it is known or the steps are a plain
   * iterable, else a promise of it.
   */
  next(): IteratorResult<Step, undefined> | Promise<IteratorResult<Step, undefined>> {
    if (this.#ahead.length > 0) return { done: false, value: this.#ahead.shift() as Step };
    if (this.#done) return { done: true, value: undefined };
    if (!this.#sync) return this.#pull();
    const result = (this.#iterator as Iterator<Step>).next();
    if (result.done) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    return { done: false, value: result.value };
  }

  /**
   * The first message step still to come, without moving past anything (`undefined` when
   * none comes).
   */
  async nextMessage(): Promise<MessageStep | undefined> {
    for (let i = 0;; i++) {
      // a step pulled now is looked at in this same round
      if (i >= this.#ahead.length) {
        if (this.#done || i >= LOOKAHEAD_LIMIT) return undefined;
        const pulled = await this.#pull();
        if (pulled.done) return undefined;
        this.#ahead.push(pulled.value);
      }
      const step = this.#ahead[i];
      if (isObject(step) && step.kind === "message") return step;
    }
  }

  /**
   * Ends the pass early (a generator's `finally` runs, as when a `for` loop breaks): nothing
   * to wait for once the steps ran out.
   */
  close(): Promise<void> | undefined {
    if (this.#done) return undefined;
    this.#done = true;
    return this.#close();
  }

  async #close(): Promise<void> {
    await this.#iterator.return?.();
  }

  async #pull(): Promise<IteratorResult<Step, undefined>> {
    if (this.#done) return { done: true, value: undefined };
    const result = await this.#iterator.next();
    if (result.done) {
      this.#done = true;
      return { done: true, value: undefined };
    }
    return { done: false, value: result.value };
  }
}
