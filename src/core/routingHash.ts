/**
 * OpenSearch 2.x shard selection for a routing value.
 *
 * OpenSearch picks a document's (or a routed search's) shard from its routing
 * string like this (server/src/main/java/org/opensearch/cluster/routing/
 * OperationRouting.java, calculateScaledShardId, and
 * Murmur3HashFunction.hash(String), same package):
 *
 *   hash  = Murmur3 x86 32-bit, seed 0, over the UTF-16LE bytes of the string
 *           (each Java char c becomes the bytes (byte) c, (byte) (c >>> 8))
 *   shard = Math.floorMod(hash, routingNumShards) / routingFactor
 *           where routingFactor = routingNumShards / numberOfShards
 *
 * routingNumShards defaults (index.number_of_routing_shards unset) to the
 * largest numberOfShards · 2^k that is <= 1024 with k >= 1, so numberOfShards · 2
 * (above 1024) for more than 512 shards
 * (MetadataCreateIndexService.calculateNumRoutingShards, indices created on or
 * after 7.0 / any OpenSearch version).
 *
 * This is checked against a real OpenSearch node in
 * src/core/fixtures/opensearch-routing.json (see routingHash.test.ts).
 */

/** The largest number of primary shards OpenSearch allows per index. */
export const MAX_SHARDS = 1024;

function mix(k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, 0x1b873593);
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * murmur3x86_32 hashes bytes with MurmurHash3 x86 32-bit and returns the hash
 * as a signed 32-bit integer, as Java's int (Lucene's
 * StringHelper.murmurhash3_x86_32).
 */
export function murmur3x86_32(bytes: Uint8Array, seed = 0): number {
  let h = seed | 0;
  const n = bytes.length;
  const blocks = n & ~3;
  for (let i = 0; i < blocks; i += 4) {
    const k = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
    h ^= mix(k);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (n & 3) {
    case 3:
      k ^= bytes[blocks + 2] << 16;
    // falls through
    case 2:
      k ^= bytes[blocks + 1] << 8;
    // falls through
    case 1:
      k ^= bytes[blocks];
      h ^= mix(k);
  }
  h ^= n;
  return fmix(h);
}

/**
 * routingHash returns OpenSearch's Murmur3 hash of a routing string: Murmur3
 * x86 32-bit, seed 0, over the string's UTF-16LE code units. Returns a signed
 * 32-bit integer. Equivalent to murmur3x86_32(utf16le(routing)) without
 * allocating.
 */
export function routingHash(routing: string): number {
  const len = routing.length;
  let h = 0;
  // Two UTF-16 code units make one 4-byte little-endian block: c0 | c1 << 16.
  const pairs = len >> 1;
  for (let i = 0; i < pairs; i++) {
    const k = routing.charCodeAt(2 * i) | (routing.charCodeAt(2 * i + 1) << 16);
    h ^= mix(k);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (len & 1) {
    h ^= mix(routing.charCodeAt(len - 1));
  }
  h ^= len * 2;
  return fmix(h);
}

function assertShardCount(numberOfShards: number): void {
  if (!Number.isInteger(numberOfShards) || numberOfShards < 1 || numberOfShards > MAX_SHARDS) {
    throw new RangeError(`numberOfShards ${numberOfShards} is invalid: expected an integer in [1, ${MAX_SHARDS}]`);
  }
}

/**
 * defaultRoutingNumShards returns the index.number_of_routing_shards that
 * OpenSearch computes when it is not set: numberOfShards · 2^k for the largest
 * k >= 1 with the result <= 1024 (for numberOfShards > 512, k = 1).
 * numberOfShards must be an integer in [1, 1024].
 */
export function defaultRoutingNumShards(numberOfShards: number): number {
  assertShardCount(numberOfShards);
  const log2NumShards = 32 - Math.clz32(numberOfShards - 1); // ceil(log2(n))
  const numSplits = Math.max(1, 10 - log2NumShards);
  return numberOfShards * 2 ** numSplits;
}

/**
 * shardForRouting returns the OpenSearch shard number in [0, numberOfShards)
 * that a routing value selects. routingNumShards defaults as OpenSearch
 * computes it; if given it must be a multiple of numberOfShards.
 */
export function shardForRouting(routing: string, numberOfShards: number, routingNumShards = defaultRoutingNumShards(numberOfShards)): number {
  assertShardCount(numberOfShards);
  if (!Number.isInteger(routingNumShards) || routingNumShards < numberOfShards || routingNumShards % numberOfShards !== 0) {
    throw new RangeError(`routingNumShards ${routingNumShards} is invalid: it must be a multiple of numberOfShards (${numberOfShards})`);
  }
  const h = routingHash(routing);
  // Java's Math.floorMod: the result has the sign of the divisor (positive here).
  const mod = ((h % routingNumShards) + routingNumShards) % routingNumShards;
  return Math.floor(mod / (routingNumShards / numberOfShards));
}
