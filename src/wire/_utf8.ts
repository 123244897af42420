/**
 * Internal: strict UTF-8 for files read as text (scenario files, tapes). JSON text is UTF-8;
 * bytes that are not are an error naming the first one, never a silent U+FFFD.
 *
 * @module
 */

/** Where bytes stop being UTF-8: the offset of the first bad byte, and whether the end cut a character short. */
export interface BadUtf8 {
  /** The offset of the first byte that is not UTF-8 (for `cut`, the start of the cut character). */
  at: number;
  /** Whether the bytes end in the middle of a character. */
  cut: boolean;
}

/** The first place `bytes` are not UTF-8, or `undefined` when they are. */
export function badUtf8(bytes: Uint8Array): BadUtf8 | undefined {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    return undefined;
  } catch {
    // found below: the chunk it is in, then byte by byte from the character before that chunk
  }
  const chunk = 65_536;
  let from = 0;
  const chunks = new TextDecoder("utf-8", { fatal: true });
  for (; from < bytes.length; from += chunk) {
    try {
      chunks.decode(bytes.subarray(from, from + chunk), { stream: true });
    } catch {
      break;
    }
  }
  let start = Math.max(0, Math.min(from, bytes.length) - 3);
  while (start > 0 && (bytes[start] & 0xc0) === 0x80) start--;
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (let i = start; i < bytes.length; i++) {
    try {
      decoder.decode(bytes.subarray(i, i + 1), { stream: true });
    } catch {
      return { at: i, cut: false };
    }
  }
  let at = bytes.length;
  while (at > 0 && (bytes[at - 1] & 0xc0) === 0x80) at--;
  return { at: Math.max(0, at - 1), cut: true };
}

/**
 * "byte 0xff at offset 44 (line 2) is not part of a UTF-8 character", for messages; `from`:
 * the line and file offset `bytes` start at (a chunk of a file read in parts).
 */
export function describeBadUtf8(
  bytes: Uint8Array,
  bad: BadUtf8,
  from: { line: number; offset: number } = { line: 1, offset: 0 },
): string {
  let line = from.line;
  for (let i = 0; i < bad.at; i++) if (bytes[i] === 0x0a) line++;
  const what = bad.cut
    ? "starts a UTF-8 character the end of the file cuts short"
    : "is not part of a UTF-8 character";
  const byte = bytes[bad.at].toString(16).padStart(2, "0");
  return `byte 0x${byte} at offset ${from.offset + bad.at} (line ${line}) ${what}`;
}

/** The text of UTF-8 bytes; an `Error` naming the first bad byte and its line otherwise. */
export function utf8Text(bytes: Uint8Array): string {
  const bad = badUtf8(bytes);
  if (bad !== undefined) throw new Error(`not UTF-8 text: ${describeBadUtf8(bytes, bad)}`);
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
}
