/**
 * Callsigns: the spec's "generated label of hyphen-joined words". The mock derives one from the
 * title, so the same title gives the same label in every run.
 * @module
 */

const ADJECTIVES = [
  'amber', 'bold', 'brisk', 'calm', 'clear', 'coral', 'crisp', 'dusky',
  'eager', 'fair', 'gentle', 'golden', 'hardy', 'ivory', 'jolly', 'keen',
  'lively', 'lucid', 'mellow', 'misty', 'noble', 'olive', 'proud', 'quiet',
  'rapid', 'rosy', 'silver', 'steady', 'sunny', 'tidy', 'vivid', 'witty',
];
const NOUNS = [
  'anchor', 'badger', 'beacon', 'canyon', 'cedar', 'comet', 'delta', 'ember',
  'falcon', 'fjord', 'glacier', 'harbor', 'heron', 'island', 'lantern', 'maple',
  'meadow', 'nebula', 'orchid', 'otter', 'pebble', 'prairie', 'quartz', 'raven',
  'river', 'summit', 'thistle', 'tundra', 'valley', 'willow', 'yonder', 'zephyr',
];

/** FNV-1a, 32 bits: small, stable across runs and platforms. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A callsign for `title`, such as `amber-falcon-river`. When `taken` says the label is in use,
 * the next candidate for the same title is tried.
 */
export function callsignFor(title: string, taken: (callsign: string) => boolean): string {
  for (let attempt = 0; ; attempt++) {
    const h = hash(attempt === 0 ? title : `${title}#${attempt}`);
    const label = [ADJECTIVES[h & 31], NOUNS[(h >>> 5) & 31], NOUNS[(h >>> 10) & 31]].join('-');
    if (!taken(label)) return label;
  }
}
