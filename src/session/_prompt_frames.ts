/**
 * For the engine's unit tests: one prompt to a {@linkcode Session} as a client would send it
 * (an `initialize` request first, if given), every control request answered, stdin closed at the
 * result; the frames the session wrote. Internal.
 *
 * @module
 */
import type { Frame } from "../wire/frame.ts";
import type { Session } from "./session.ts";

/** Options of {@linkcode promptFrames}. */
export interface PromptFramesOptions {
  /** Fields of an `initialize` request sent before the prompt (none sent without). */
  initialize?: Record<string, unknown>;
  /** The answer to a control request (its `request`); `{}` when absent or `undefined`. */
  // deno-lint-ignore no-explicit-any
  answer?: (request: any) => Record<string, unknown> | undefined;
  /** Sends an `interrupt` request (once) after the first frame this accepts. */
  interruptAfter?: (frame: Frame) => boolean;
}

const line = (frame: unknown) => JSON.stringify(frame) + "\n";

/** Sends `prompt` to `session`, answers its control requests; the frames, once it exited. */
export async function promptFrames(
  session: Session,
  prompt: string,
  options: PromptFramesOptions = {},
): Promise<Frame[]> {
  const writer = session.writable.getWriter();
  if (options.initialize) {
    await writer.write(line({
      type: "control_request",
      request_id: "init",
      request: { subtype: "initialize", ...options.initialize },
    }));
  }
  await writer.write(line({
    type: "user",
    session_id: "",
    message: { role: "user", content: prompt },
    parent_tool_use_id: null,
  }));
  const frames: Frame[] = [];
  let interrupted = false;
  let closed = false;
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of session.readable) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const text of lines.filter((l) => l.trim() !== "")) {
      const frame = JSON.parse(text) as Frame;
      frames.push(frame);
      if (frame.type === "control_request") {
        await writer.write(line({
          type: "control_response",
          response: {
            subtype: "success",
            request_id: frame.request_id,
            response: options.answer?.(frame.request) ?? {},
          },
        }));
      }
      if (!interrupted && options.interruptAfter?.(frame)) {
        interrupted = true;
        await writer.write(line({
          type: "control_request",
          request_id: "interrupt",
          request: { subtype: "interrupt" },
        }));
      }
      if (frame.type === "result" && !closed) {
        closed = true;
        await writer.close();
      }
    }
  }
  await session.exited;
  return frames;
}
