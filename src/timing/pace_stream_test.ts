import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { PaceStream } from "./pace_stream.ts";
import { SystemClock } from "./system_clock.ts";
import { TIMING_PROFILES, timingProfile } from "./timing_profile.ts";
import { VirtualClock } from "./virtual_clock.ts";

async function pacedTimes(seed: number, timing = "realistic" as const): Promise<number[]> {
  const clock = new VirtualClock({ start: 0 });
  const frames = Array.from(
    { length: 50 },
    (_, i) => ({ type: i % 3 ? "stream_event" : "assistant" }),
  );
  const times: number[] = [];
  await ReadableStream.from(frames)
    .pipeThrough(new PaceStream({ clock, timing, seed, map: (f, now) => (times.push(now), f) }))
    .pipeTo(new WritableStream());
  return times;
}

Deno.test("PaceStream gives identical delays for the same seed, run after run", async () => {
  const a = await pacedTimes(42);
  const b = await pacedTimes(42);
  const c = await pacedTimes(43);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
  assert.ok(a.every((t, i) => i === 0 || t > a[i - 1]));
});

Deno.test("PaceStream applies (base + jitter) * speedFactor", async () => {
  const clock = new VirtualClock({ start: 0 });
  const times: number[] = [];
  await ReadableStream.from([{ type: "x" }, { type: "x" }])
    .pipeThrough(
      new PaceStream({
        clock,
        timing: { baseMs: 100, jitterMs: 50 },
        speedFactor: 2,
        prng: () => 0.5,
        map: (f, now) => (times.push(now), f),
      }),
    )
    .pipeTo(new WritableStream());
  assert.deepEqual(times, [250, 500]);
});

Deno.test("PaceStream uses byType delays and explicit delayOf", async () => {
  const clock = new VirtualClock({ start: 0 });
  const times: number[] = [];
  const chunks = [{ type: "stream_event" }, { type: "assistant", wait: 7 }];
  await ReadableStream.from(chunks)
    .pipeThrough(
      new PaceStream<{ type: string; wait?: number }>({
        clock,
        timing: { baseMs: 100, jitterMs: 0, byType: { stream_event: { baseMs: 3, jitterMs: 0 } } },
        delayOf: (c) => c.wait,
        map: (f, now) => (times.push(now), f),
      }),
    )
    .pipeTo(new WritableStream());
  assert.deepEqual(times, [3, 10]);
});

Deno.test("PaceStream: one hour of delays on the virtual clock waits for no timer", async () => {
  // with the timers faked and never advanced, a wait on a timer would never end: the hour
  // passes on the virtual clock alone, and no timer is left behind
  const fake = FakeTimers.install({
    now: 0,
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
  });
  try {
    const clock = new VirtualClock({ start: 0 });
    const frames = Array.from({ length: 3600 }, () => ({ type: "assistant" }));
    await ReadableStream.from(frames)
      .pipeThrough(new PaceStream({ clock, timing: { baseMs: 1000, jitterMs: 0 } }))
      .pipeTo(new WritableStream());
    assert.equal(clock.now(), 3_600_000);
    assert.equal(fake.countTimers(), 0);
    assert.equal(Date.now(), 0, "no fake time passed either");
  } finally {
    fake.uninstall();
  }
});

Deno.test("PaceStream on the system clock is driven by fake timers, anchored to deadlines", async () => {
  const fake = FakeTimers.install({ now: 0, toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const clock = new SystemClock();
    const times: number[] = [];
    const done = ReadableStream.from([1, 2, 3])
      .pipeThrough(
        new PaceStream<number>({
          clock,
          timing: { baseMs: 100, jitterMs: 0 },
          typeOf: () => undefined,
          map: (n, now) => (times.push(now), n),
        }),
      )
      .pipeTo(new WritableStream());
    while (times.length < 3) await fake.nextAsync();
    await done;
    assert.deepEqual(times, [100, 200, 300]);
  } finally {
    fake.uninstall();
  }
});

Deno.test("PaceStream rejects a negative speed factor", () => {
  assert.throws(() => new PaceStream({ speedFactor: -1 }), RangeError);
});

Deno.test("timingProfile resolves names and validates custom profiles", () => {
  assert.equal(timingProfile("instant"), TIMING_PROFILES.instant);
  assert.throws(() => timingProfile("warp" as "fast"), /Unknown timing profile 'warp'/);
  assert.throws(
    () => timingProfile({ baseMs: -1, jitterMs: 0 }),
    /'baseMs' must be a finite number >= 0/,
  );
  assert.throws(
    () => timingProfile({ baseMs: 1, jitterMs: 0, byType: { x: { baseMs: 1, jitterMs: NaN } } }),
    /byType.x/,
  );
});
