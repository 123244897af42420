/**
 * The engine's stdout: frames go out in order, paced on the session clock, stamped,
 * encoded as stream-json lines, with backpressure from the reader. On the instant path a
 * frame is encoded and enqueued synchronously: no promise, no stream hop.
 *
 * @module
 */

import type { Prng } from "../random/pcg32.ts";
import type { AbortLatch } from "../timing/_abort_latch.ts";
import { isoTime } from "../timing/_iso_time.ts";
import type { Clock } from "../timing/clock.ts";
import { Pacer } from "../timing/pacer.ts";
import { LoopBudget, yieldToEventLoop } from "../timing/real_time.ts";
import type { Delay, TimingProfile } from "../timing/timing_profile.ts";
import type { Frame, RawLine } from "../wire/frame.ts";
import { frameJson } from "../wire/_frame_json.ts";
import { sessionEnded } from "./turn_state.ts";
import { encodeLine } from "./_line_slab.ts";

/** One frame (or raw line) to write, with its delay instead of the profile's. */
export interface Outgoing {
  /** The frame, or a raw line. */
  frame: Frame | RawLine;
  /** A number (ms before the speed factor, no jitter), a delay, or the profile's. */
  delay?: number | Delay;
  /** The frame already encoded (a line ending in a newline): written instead of encoding. */
  bytes?: Uint8Array;
  /**
   * The turn the frame belongs to: when it is aborted (an interrupt) while the frame still
   * waits for its delay, the wait ends and the frame goes out at once (an interrupted paced
   * reply does not run out its delays first).
   */
  cancel?: AbortLatch;
}

/** What an {@linkcode Outbox} needs. */
export interface OutboxOptions {
  /** The session clock. */
  clock: Clock;
  /** The session's timing profile. */
  profile: TimingProfile;
  /** The speed factor. */
  speedFactor: number;
  /** Jitter source. */
  prng: Prng;
  /** Keep every frame written (for `Session.sent()`). */
  recordSent: boolean;
  /**
   * Where the lines go instead of {@linkcode Outbox.readable}: each line's bytes in order; a
   * promise it returns holds output back until it settles (up to 16 lines in flight), and a
   * rejection or a throw is a broken pipe. No stream is made.
   */
  output?: (line: Uint8Array) => void | Promise<void>;
  /**
   * Write frames' `timestamp` as the session clock's time (default `true`); `false` keeps
   * the timestamps the frames carry (a recording's).
   */
  stampTimes?: boolean;
  /**
   * Aborted when the process ends: a pacing wait in progress stops (no timer is left). Its
   * `AbortSignal` is asked for only when a wait begins.
   */
  ended: AbortLatch;
  /**
   * Called when the reader cancels stdout (the pipe breaks); `pending` says whether output
   * was waiting to be written (a write into the broken pipe).
   */
  onCancel: (pending: boolean) => void;
}

interface Queued {
  item: Outgoing;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * What `send` returns when the line went out at once (the instant path): a caller may go on
 * without awaiting it, sparing the turn a microtask (a turn's awaits are much of its cost).
 */
export const SENT: Promise<void> = Promise.resolve();
const DONE: Promise<void> = SENT;
/** Chunks the reader may lag behind before `send` waits for it. */
const HIGH_WATER_MARK = 16;

/** Where the lines go: the readable's controller, or the host's function. */
interface Channel {
  readonly desiredSize: number | null;
  enqueue(chunk: Uint8Array): void;
  close(): void;
}

/** The host's function as a channel: how many of its writes are still in flight. */
interface SinkChannel extends Channel {
  readonly pending: number;
}

/** The session's output: `send` frames, read them from `readable`. */
export class Outbox {
  #readable?: ReadableStream<Uint8Array>;
  /** How many frames were handed to `send` (crashes count them). */
  count = 0;
  #clock: Clock;
  #pacer: Pacer;
  #budget = new LoopBudget();
  #stampTimes: boolean;
  #controller!: Channel;
  #sink?: SinkChannel;
  #queue: Queued[] = [];
  #draining = false;
  #closed = false;
  #cancelled = false;
  #waiters: Array<() => void> = [];
  #sent?: Frame[];
  /** The control requests written to the client, by request id (their bodies). */
  readonly sentRequests: Map<string, Record<string, unknown>> = new Map();
  #ended: AbortLatch;

  /** Creates the output. */
  constructor(options: OutboxOptions) {
    this.#clock = options.clock;
    this.#ended = options.ended;
    this.#stampTimes = options.stampTimes ?? true;
    this.#pacer = new Pacer({
      profile: options.profile,
      speedFactor: options.speedFactor,
      prng: options.prng,
      maxCatchUpMs: 100,
    });
    if (options.recordSent) this.#sent = [];
    const cancel = (wrote: boolean) => {
      if (this.#cancelled) return;
      const pending = wrote || this.#queue.length > 0;
      this.#cancelled = true;
      this.#closed = true;
      this.#rejectQueued();
      this.#wake();
      options.onCancel(pending);
    };
    if (options.output) {
      this.#sink = sinkChannel(options.output, () => this.#wake(), () => cancel(true));
      this.#controller = this.#sink;
      return;
    }
    this.#readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      pull: () => this.#wake(),
      cancel: () => cancel(false),
    }, { highWaterMark: HIGH_WATER_MARK });
  }

  /** The session's stdout (a `TypeError` when the lines go to the `output` function). */
  get readable(): ReadableStream<Uint8Array> {
    if (!this.#readable) {
      throw new TypeError(
        "Cannot read the session's stdout: its lines go to the 'output' function it was given",
      );
    }
    return this.#readable;
  }

  /** The frames written so far (only with `recordSent`). */
  get sent(): Frame[] | undefined {
    return this.#sent;
  }

  /** Whether the reader cancelled stdout (a broken pipe). */
  get broken(): boolean {
    return this.#cancelled;
  }

  /** Whether output has ended (closed, terminated, or cancelled by the reader). */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Writes `item` after its delay; resolves once it is enqueued for the reader (rejects
   * with the session-ended sentinel once output has ended).
   */
  send(item: Outgoing): Promise<void> {
    if (this.#closed) return Promise.reject(sessionEnded());
    this.count++;
    const frame = item.frame as Frame;
    if (this.#sent && typeof frame.type === "string") this.#sent.push(frame);
    if (frame.type === "control_request" && typeof frame.request_id === "string") {
      // what the client is asked, kept so its answers can be paired with it
      const request = frame.request;
      if (request && typeof request === "object") {
        this.sentRequests.set(frame.request_id, request as Record<string, unknown>);
      }
    }
    if (!this.#draining && this.#queue.length === 0) {
      const delay = this.#delayOf(item);
      const now = this.#clock.now();
      const yieldNow = this.#yieldDue();
      if (delay <= 0 && !yieldNow && (this.#controller.desiredSize ?? 0) > 0) {
        let bytes: Uint8Array;
        try {
          bytes = item.bytes ?? this.#encode(item.frame, now);
        } catch (error) {
          // a frame that cannot be encoded fails its own send, never synchronously
          return Promise.reject(error);
        }
        this.#pacer.immediate(now);
        this.#controller.enqueue(bytes);
        return DONE;
      }
      return this.#enqueueSlow(item, delay, yieldNow);
    }
    return this.#enqueueSlow(item, undefined, false);
  }

  /** Ends output after everything sent so far was written and read. */
  async close(): Promise<void> {
    if (this.#closed) return;
    while (this.#draining || this.#queue.length > 0) {
      await this.#waitForWake();
      if (this.#cancelled) return;
    }
    // let the reader take what is queued before the end, as a pipe delivers it
    while (!this.#cancelled && (this.#controller.desiredSize ?? 0) < HIGH_WATER_MARK) {
      await this.#waitForWake();
    }
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller.close();
    } catch {
      // cancelled meanwhile
    }
  }

  /** Ends output now: what was not enqueued yet is dropped. */
  terminate(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#rejectQueued();
    try {
      this.#controller.close();
    } catch {
      // already closed
    }
    this.#wake();
  }

  /**
   * Whether enough lines went out on microtasks to give the event loop a turn (a count, the
   * same on every machine: see `YIELD_EVERY`). Writing to the host's function, that turn is
   * the completion of a write in flight (with none in flight, nothing waits on this
   * process's output): no timer, and on Deno no `setImmediate`, whose first use loads the
   * Node compatibility layer.
   */
  #yieldDue(): boolean {
    return this.#budget.due() && (this.#sink === undefined || this.#sink.pending > 0);
  }

  #yield(): Promise<void> {
    if (!this.#sink) return yieldToEventLoop();
    // a write in flight wakes the outbox as it settles; none in flight, there is nothing to wait for
    return this.#sink.pending > 0 ? this.#waitForWake() : DONE;
  }

  #encode(frame: Frame | RawLine, now: number): Uint8Array {
    return encodeLine(frameJson(this.#stampTimes ? stamp(frame, now) : frame), true);
  }

  #delayOf(item: Outgoing): number {
    const frame = item.frame as { type?: unknown };
    return this.#pacer.delay(item.delay, typeof frame.type === "string" ? frame.type : undefined);
  }

  #enqueueSlow(item: Outgoing, delay: number | undefined, yieldNow: boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (!this.#draining) this.#drain(delay, yieldNow);
    });
  }

  async #drain(firstDelay: number | undefined, yieldFirst: boolean): Promise<void> {
    this.#draining = true;
    let known = firstDelay;
    let yieldNow = yieldFirst;
    try {
      while (this.#queue.length > 0 && !this.#closed) {
        const next = this.#queue[0];
        const delay = known ?? this.#delayOf(next.item);
        known = undefined;
        const yieldHere = yieldNow;
        yieldNow = false;
        let now = this.#clock.now();
        if (delay > 0) {
          const cancel = next.item.cancel;
          if (!cancel?.aborted) {
            try {
              await this.#clock.sleepUntil(this.#pacer.deadline(delay, now), {
                signal: cancel
                  ? AbortSignal.any([this.#ended.signal, cancel.signal])
                  : this.#ended.signal,
              });
            } catch (error) {
              if (this.#ended.aborted || !cancel?.aborted) throw error;
            }
          }
          now = this.#clock.now();
          // its turn was interrupted while it waited: it goes out now, as a delta already on
          // its way reaches the real CLI's output, and the schedule restarts from here
          if (cancel?.aborted) this.#pacer.restart(now);
        } else {
          this.#pacer.immediate(now);
          if (yieldHere || this.#yieldDue()) await this.#yield();
        }
        while (!this.#closed && (this.#controller.desiredSize ?? 0) <= 0) {
          await this.#waitForWake();
        }
        if (this.#closed) break;
        this.#queue.shift();
        let bytes: Uint8Array;
        try {
          bytes = next.item.bytes ?? this.#encode(next.item.frame, now);
        } catch (error) {
          // it fails its own send; the frames behind it go on
          next.reject(error);
          continue;
        }
        this.#controller.enqueue(bytes);
        next.resolve();
      }
    } catch (error) {
      for (const queued of this.#queue.splice(0)) queued.reject(error);
    } finally {
      this.#draining = false;
      this.#rejectQueued();
      this.#wake();
    }
  }

  #rejectQueued(): void {
    if (!this.#closed) return;
    for (const queued of this.#queue.splice(0)) queued.reject(sessionEnded());
  }

  #waitForWake(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }
}

function stamp(frame: Frame | RawLine, now: number): Frame | RawLine {
  if ("timestamp" in frame && typeof frame.timestamp === "string") {
    const timestamp = isoTime(now);
    // built on the session clock, a frame mostly carries this time already: no copy then
    return frame.timestamp === timestamp ? frame : { ...frame, timestamp };
  }
  return frame;
}

/**
 * A channel that hands each line to `output`: its promises count against the high-water
 * mark and wake the outbox as they settle; a failure (a reader that went away) cancels.
 */
function sinkChannel(
  output: (line: Uint8Array) => void | Promise<void>,
  wake: () => void,
  cancel: () => void,
): SinkChannel {
  let pending = 0;
  const settled = () => {
    pending--;
    wake();
  };
  const failed = () => {
    pending--;
    cancel();
  };
  return {
    get pending() {
      return pending;
    },
    get desiredSize() {
      return HIGH_WATER_MARK - pending;
    },
    enqueue(chunk) {
      let result: void | Promise<void>;
      try {
        result = output(chunk);
      } catch {
        cancel();
        return;
      }
      if (result && typeof result.then === "function") {
        pending++;
        result.then(settled, failed);
      }
    },
    close() {},
  };
}
