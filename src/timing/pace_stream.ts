/**
 * The pacing TransformStream: waits `(base + jitter) * speedFactor` on a clock before
 * passing each chunk on.
 *
 * @module
 */

import { Pcg32, type Prng } from "../random/pcg32.ts";
import type { Clock } from "./clock.ts";
import { type Delay, type Timing, timingProfile } from "./timing_profile.ts";
import { Pacer } from "./pacer.ts";
import { LoopBudget } from "./real_time.ts";
import { VirtualClock } from "./virtual_clock.ts";

/** Options for {@linkcode PaceStream}. */
export interface PaceOptions<T, U> {
  /** The clock to wait on (default: a new {@linkcode VirtualClock}). */
  clock?: Clock;
  /** The timing profile (default `instant`). */
  timing?: Timing;
  /** Multiplies every delay (default 1). */
  speedFactor?: number;
  /** Seed for the jitter (default 0). Ignored when `prng` is given. */
  seed?: bigint | number;
  /** A float source in `[0, 1)` for the jitter. */
  prng?: Prng;
  /**
   * This chunk's delay instead of the profile's: a number (ms, before the speed factor,
   * no jitter) or a {@linkcode Delay}. `undefined` uses the profile.
   */
  delayOf?: (chunk: T) => number | Delay | undefined;
  /** The chunk's type for the profile's `byType` (default: `chunk.type` if a string). */
  typeOf?: (chunk: T) => string | undefined;
  /** Maps a chunk once its wait is over, with the clock's time then (to stamp it). */
  map?: (chunk: T, now: number) => U;
  /** How far behind its schedule the stream may be and still catch up (default 100 ms). */
  maxCatchUpMs?: number;
  /** Aborting stops the stream (pending waits are cancelled). */
  signal?: AbortSignal;
}

/**
 * Paces chunks on a clock. Delays are anchored to absolute deadlines, so a coarse timer
 * that fires late makes the next wait shorter instead of drifting; after an idle gap
 * longer than `maxCatchUpMs` the schedule restarts from now. The same seed gives the same
 * delays, run after run.
 *
 * @example Pacing frames on a virtual clock
 * ```ts
 * import { VirtualClock } from "@x/claude-mock";
 * import { PaceStream } from "@x/claude-mock/wire";
 * const clock = new VirtualClock({ start: 0 });
 * const paced = ReadableStream.from([{ type: "a" }, { type: "b" }])
 *   .pipeThrough(new PaceStream({ clock, timing: { baseMs: 500, jitterMs: 0 } }));
 * for await (const frame of paced) console.log(frame.type, clock.now()); // a 500, b 1000
 * ```
 */
export class PaceStream<T, U = T> extends TransformStream<T, U> {
  /** Creates a pacing stream. */
  constructor(options: PaceOptions<T, U> = {}) {
    const clock = options.clock ?? new VirtualClock();
    const profile = timingProfile(options.timing ?? "instant");
    const speed = options.speedFactor ?? 1;
    if (!(speed >= 0) || !Number.isFinite(speed)) {
      throw new RangeError(`Cannot create PaceStream: 'speedFactor' must be >= 0, got ${speed}`);
    }
    const prng = options.prng ?? seeded(options.seed ?? 0);
    const typeOf = options.typeOf ?? defaultTypeOf;
    const map = options.map ?? ((chunk: T) => chunk as unknown as U);
    const signal = options.signal;
    const pacer = new Pacer({
      profile,
      speedFactor: speed,
      prng,
      maxCatchUpMs: options.maxCatchUpMs ?? 100,
    });
    const budget = new LoopBudget();
    let controllerRef: TransformStreamDefaultController<U> | undefined;
    super({
      start(controller) {
        controllerRef = controller;
      },
      transform(chunk, controller): void | Promise<void> {
        const delay = pacer.delay(options.delayOf?.(chunk), typeOf(chunk));
        const now = clock.now();
        if (delay > 0) {
          return clock.sleepUntil(pacer.deadline(delay, now), { signal }).then(() => {
            controller.enqueue(map(chunk, clock.now()));
          });
        }
        // No wait: stay synchronous (no promise per chunk on the instant path), but give
        // the event loop a turn every few hundred chunks.
        pacer.immediate(now);
        controller.enqueue(map(chunk, now));
        return budget.maybeYield();
      },
    });
    this.#controller = controllerRef;
  }

  #controller: TransformStreamDefaultController<U> | undefined;

  /**
   * Ends the stream now: the readable side closes (readers see the end, not an error)
   * and further writes fail. What was not read yet is dropped.
   */
  terminate(): void {
    try {
      this.#controller?.terminate();
    } catch {
      // already closed or errored
    }
  }
}

function seeded(seed: bigint | number): Prng {
  const pcg = new Pcg32(seed);
  return () => pcg.nextFloat();
}

function defaultTypeOf(chunk: unknown): string | undefined {
  const type = (chunk as { type?: unknown } | null)?.type;
  return typeof type === "string" ? type : undefined;
}
