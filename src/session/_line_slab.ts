/**
 * Output lines carved out of shared slabs: each line's bytes are a view of its own range of a
 * 64 KiB buffer, written straight into it (`TextEncoder.encodeInto`), instead of a buffer of
 * its own per line (a typed array over 64 bytes gets memory outside the heap, which costs more
 * to make and to collect than encoding the line). No range is ever handed out twice: a view
 * stays valid, whoever keeps it; a slab is collected once no line of it is kept. Internal.
 *
 * @module
 */

const SLAB_SIZE = 64 * 1024;
/** The longest line carved out of a slab (an `initialize` answer is 17 KB). */
const MAX_IN_SLAB = SLAB_SIZE >> 1;
const ENCODER = new TextEncoder();

let slab = new Uint8Array(SLAB_SIZE);
let used = 0;

/** A fresh, zeroed range of `size` bytes (its own buffer when that is over half a slab). */
export function lineBytes(size: number): Uint8Array {
  if (size > MAX_IN_SLAB) return new Uint8Array(size);
  if (used + size > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    used = 0;
  }
  const bytes = slab.subarray(used, used + size);
  used += size;
  return bytes;
}

/**
 * `text` encoded as UTF-8, the same bytes `new TextEncoder().encode(text)` gives; with
 * `newline`, then a `"\n"` byte (the bytes of `text + "\n"`, without making that string).
 */
export function encodeLine(text: string, newline = false): Uint8Array {
  const extra = newline ? 1 : 0;
  // UTF-8 takes 1 to 3 bytes per UTF-16 unit: ASCII text fits in `length` bytes
  if (text.length + extra > MAX_IN_SLAB) return ENCODER.encode(newline ? text + "\n" : text);
  if (used + text.length + extra > SLAB_SIZE) {
    slab = new Uint8Array(SLAB_SIZE);
    used = 0;
  }
  const { read, written } = ENCODER.encodeInto(text, slab.subarray(used, SLAB_SIZE - extra));
  if (read !== text.length) {
    // it did not fit (text beyond ASCII): in a fresh slab it does, at 3 bytes a unit at most
    if (text.length * 3 + extra > SLAB_SIZE) return ENCODER.encode(newline ? text + "\n" : text);
    slab = new Uint8Array(SLAB_SIZE);
    used = 0;
    return encodeLine(text, newline);
  }
  if (newline) slab[used + written] = 0x0a;
  const bytes = slab.subarray(used, used + written + extra);
  used += written + extra;
  return bytes;
}
