/**
 * The server's plain HTTP chores: a request's headers for the journal (keys redacted), its
 * body (bounded), its JSON, and a connection reset.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** The largest request body read (64 MiB); a bigger one rejects with code `TOO_BIG`. */
const MAX_BODY = 64 * 1024 * 1024;

/** A request's headers, lower-cased, with the API key and authorization redacted. */
export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    out[key] = key === "x-api-key" || key === "authorization"
      ? "<redacted>"
      : Array.isArray(value)
      ? value.join(", ")
      : value;
  }
  return out;
}

/** A request's whole body (at most 64 MiB). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error("too big"), { code: "TOO_BIG" }));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("aborted", () => reject(new Error("aborted")));
  });
}

/** `text` as JSON, or the text itself when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Resets the connection (a TCP RST where the runtime can, else a plain close). */
export function resetSocket(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket?.resetAndDestroy) socket.resetAndDestroy();
  else res.destroy();
}
