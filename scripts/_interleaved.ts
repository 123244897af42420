// Interleaved timing of whole processes for the start-up scripts (scripts/cli_speed.ts,
// scripts/node_cli_speed.ts): every variant once to warm the caches, then rounds of A B C ...

/** One run's times in milliseconds: to the first stdout byte, and to the exit. */
export interface RunTimes {
  first: number;
  wall: number;
}

/** The median of `xs` (the upper one of an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs each variant `rounds` times, interleaved; each variant's times in run order. */
export async function interleaved<T>(
  variants: Record<string, T>,
  options: { rounds: number; once: (variant: T) => Promise<RunTimes> },
): Promise<Record<string, { first: number[]; wall: number[] }>> {
  const samples: Record<string, { first: number[]; wall: number[] }> = {};
  for (const name of Object.keys(variants)) samples[name] = { first: [], wall: [] };
  for (const variant of Object.values(variants)) await options.once(variant); // warm the caches
  for (let r = 0; r < options.rounds; r++) {
    for (const [name, variant] of Object.entries(variants)) {
      const { first, wall } = await options.once(variant);
      samples[name].first.push(first);
      samples[name].wall.push(wall);
    }
  }
  return samples;
}
