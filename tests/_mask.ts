/**
 * Test helper: masks what differs from run to run (ids, uuids, timestamps, measured
 * durations) so the mock's frames and the real CLI's recorded ones compare by value.
 *
 * @module
 */

/** What {@linkcode mask} replaces besides ids, uuids, session ids and timestamps. */
export interface MaskOptions {
  /**
   * Also mask what a run measures or draws at random (default `true`): durations, task
   * start and end times, agent and run ids, a subagent's harness hash, where a task's output
   * went. The builders' fidelity test passes `false`: it builds its frames from the recorded
   * values, so those must come out exactly as recorded; a mock run measures its own.
   */
  measured?: boolean;
}

/** `value` (any JSON) with its run-specific parts replaced by placeholders. */
export function mask(value: unknown, options: MaskOptions = {}): unknown {
  if (value === undefined) return undefined;
  let text = JSON.stringify(value)
    .replace(/"session_id":"[^"]+"/g, '"session_id":"SESSION"')
    .replace(/"request_id":"[^"]*"/g, '"request_id":"REQUEST"');
  if (options.measured ?? true) {
    text = text
      .replace(/\ba[0-9a-f]{16}\b/g, "AGENT")
      .replace(/"harnessSectionHash":"[0-9a-f]{16}"/g, '"harnessSectionHash":"HASH"')
      .replace(/"run_id":"[0-9a-z]{9}-[0-9a-f]{8}"/g, '"run_id":"RUN"')
      .replace(/"(\w*duration_ms)":\d+/g, '"$1":0')
      .replace(/duration_ms: \d+/g, "duration_ms: 0")
      .replace(
        /first after \d+ ms, none in the final \d+ ms/g,
        "first after 0 ms, none in the final 0 ms",
      )
      .replace(/"(start_time|end_time)":\d{13}/g, '"$1":"TIME"')
      // where a task's output went: the recordings scrubbed it to /tmp/x
      .replace(/"output_file":"[^"]*"/g, '"output_file":"OUTPUT"');
  }
  return JSON.parse(
    text
      .replace(/toolu_\w+/g, "TOOLU")
      .replace(/req_\w+/g, "REQ")
      .replace(/msg_\w+/g, "MSG")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, "TIME"),
  );
}
