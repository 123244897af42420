/**
 * An `AbortController` whose `AbortSignal` is made only when something asks for one. The
 * engine's own cancellations (a turn interrupted, the process ended) are checked and listened
 * to through `aborted`, `reason` and `onAbort`, plain fields and callbacks; the signal is for
 * the APIs that take an `AbortSignal` (a clock's sleep, a control request). On Deno the first
 * `AbortController`, `addEventListener` and `abort()` of a process cost about 1.5 ms between
 * them (the event machinery runs cold), a tenth of the fake binary's start-up. Internal.
 *
 * @module
 */

/** A one-way latch: once aborted it stays aborted, with the reason it was given. */
export class AbortLatch {
  #aborted = false;
  #reason: unknown = undefined;
  #listeners: ((reason: unknown) => void)[] = [];
  #controller: AbortController | undefined;

  /** Whether it was aborted. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Why it was aborted (`undefined` until then). */
  get reason(): unknown {
    return this.#reason;
  }

  /** An `AbortSignal` that follows this latch (made on first use, aborted if it already is). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Aborts with `reason` (an `AbortError` when none is given): the listeners are called in
   * the order they were added, then the signal, if one was made, is aborted. A second call
   * does nothing.
   */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason !== undefined
      ? reason
      : new DOMException("This operation was aborted", "AbortError");
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener(this.#reason);
    this.#controller?.abort(this.#reason);
  }

  /**
   * Calls `listener` once, when the latch is aborted (never if it already is, as for an
   * `abort` event). Returns a function that removes it.
   */
  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) return () => {};
    const entry = (reason: unknown) => listener(reason);
    this.#listeners.push(entry);
    return () => {
      const i = this.#listeners.indexOf(entry);
      if (i >= 0) this.#listeners.splice(i, 1);
    };
  }
}
