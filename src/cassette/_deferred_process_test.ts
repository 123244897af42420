import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { PassThrough } from "node:stream";
import { deferredProcess } from "./_deferred_process.ts";
import type { SpawnedProcessLike } from "./spawned_process.ts";

/** A child whose stdin collects what it is sent and which exits when killed. */
function fakeChild(): SpawnedProcessLike & { written: string[]; killedWith?: string } {
  const events = new EventEmitter();
  const stdin = new PassThrough();
  const written: string[] = [];
  stdin.on("data", (chunk) => written.push(String(chunk)));
  const child = {
    stdin,
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    written,
    killedWith: undefined as string | undefined,
    killed: false,
    exitCode: null,
    kill(signal?: NodeJS.Signals) {
      child.killed = true;
      child.killedWith = signal;
      queueMicrotask(() => events.emit("exit", null, signal ?? "SIGTERM"));
      return true;
    },
    on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener),
    once: (event: string, listener: (...args: unknown[]) => void) => events.once(event, listener),
  };
  return child as unknown as SpawnedProcessLike & { written: string[]; killedWith?: string };
}

function later<T>(): { promise: Promise<T>; resolve(value: T): void; reject(e: Error): void } {
  let resolve!: (value: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

Deno.test("deferredProcess: writes before the start reach the child in order, then the end", async () => {
  const start = later<SpawnedProcessLike>();
  const process = deferredProcess(start.promise, () => Promise.resolve());
  process.stdin.write("one\n");
  process.stdin.write("two\n");
  const ended = new Promise<void>((resolve) => process.stdin.end(resolve));
  const child = fakeChild();
  const childEnded = new Promise((resolve) => child.stdin.on("end", resolve));
  start.resolve(child);
  await ended;
  await childEnded;
  assert.deepEqual(child.written.join(""), "one\ntwo\n");
  const exited = new Promise((resolve) => process.once("exit", (...args) => resolve(args)));
  child.kill("SIGTERM");
  assert.deepEqual(await exited, [null, "SIGTERM"]);
  assert.equal(process.signalCode, "SIGTERM");
});

Deno.test("deferredProcess: kill() before the start kills the child as it starts; exit after cleanup", async () => {
  const start = later<SpawnedProcessLike>();
  const order: string[] = [];
  const process = deferredProcess(start.promise, () => {
    order.push("cleanup");
    return Promise.resolve();
  });
  assert.equal(process.killed, false);
  assert.equal(process.kill("SIGINT"), true);
  assert.equal(process.killed, true);
  const exited = new Promise<void>((resolve) =>
    process.once("exit", () => {
      order.push("exit");
      resolve();
    })
  );
  const child = fakeChild();
  start.resolve(child);
  await exited;
  assert.equal(child.killedWith, "SIGINT");
  assert.deepEqual(order, ["cleanup", "exit"]);
});

Deno.test("deferredProcess: a start that fails is an error event as a failed spawn is, no exit", async () => {
  const start = later<SpawnedProcessLike>();
  let cleaned = false;
  const process = deferredProcess(start.promise, () => {
    cleaned = true;
    return Promise.resolve();
  });
  const written = new Promise<void>((resolve) => process.stdin.write("held\n", () => resolve()));
  let exited = false;
  process.on("exit", () => exited = true);
  const failed = new Promise<Error>((resolve) => process.once("error", resolve));
  start.reject(new Error("the Messages API did not start"));
  const error = await failed;
  await written;
  assert.equal(error.message, "the Messages API did not start");
  assert.equal((error as Error & { syscall?: string }).syscall, "spawn");
  assert.equal(cleaned, true);
  assert.equal(exited, false);
});
