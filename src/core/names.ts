/**
 * Shard names: short pronounceable words whose OpenSearch routing hash lands
 * on the shard they name.
 *
 * The shard holding the i-th key range gets a name `w` with
 * shardForRouting(w, N) === i, so `routing=w` sends a document (or a search)
 * to exactly that shard and a slow-query log reads `routing=yankee,zenith`
 * instead of shard numbers.
 */
import { shardForRouting } from './routingHash.ts';

/**
 * NAME_POOL is the ordered pool the picker draws from: lower-case ASCII words
 * of 3 to 8 letters, no duplicates. Its order is part of the picker's
 * contract: changing it changes the names chosen for new boundary files
 * (existing files keep theirs, since names are stored in the file).
 */
export const NAME_POOL: readonly string[] = Object.freeze(
  (
    // NATO alphabet
    'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango ' +
    'uniform victor whiskey xray yankee zulu ' +
    // Greek letters
    'beta gamma epsilon zeta eta theta iota kappa lambda omicron sigma upsilon omega ' +
    // Planets, moons, gods and heroes
    'mercury venus mars jupiter saturn uranus neptune pluto ceres vesta pallas juno titan rhea dione tethys mimas enceladus iapetus ' +
    'europa io callisto ganymede triton oberon miranda ariel umbriel phobos deimos luna ' +
    'apollo ares athena hermes hera zeus poseidon hades demeter artemis hestia nike eos helios selene atlas orion perseus ' +
    'hector ajax achilles jason medea castor pollux odin thor freya loki baldur tyr heimdall frigg idun bragi ' +
    'janus vulcan minerva diana aurora flora fauna faunus pomona bacchus cupid ' +
    // Stars and constellations
    'vega sirius rigel deneb altair antares spica arcturus capella procyon regulus pollux mira lyra cygnus draco hydra ' +
    'aquila corvus crater lupus lepus carina vela pyxis norma pavo grus tucana musca ara indus ' +
    // Words that read well in a log
    'nova zenith nadir comet meteor quasar pulsar nebula photon proton neutron quark gluon boson ' +
    'roger tudor tiger falcon eagle condor raven robin heron crane swift kestrel osprey otter badger beaver bison ' +
    'cobra viper python mamba puma lynx jaguar panther ocelot cougar moose elk caribou walrus narwhal orca dolphin marlin ' +
    'maple cedar birch aspen willow alder rowan hazel laurel cypress juniper sequoia redwood spruce larch pine oak elm ' +
    'amber jade onyx opal pearl ruby topaz garnet beryl coral ivory jasper agate quartz cobalt copper silver nickel zinc ' +
    'granite basalt marble slate flint ember blaze frost storm thunder breeze tundra canyon delta mesa summit ridge harbor ' +
    'anchor beacon compass lantern rocket glider kayak canoe schooner clipper galleon frigate ' +
    'piano violin cello banjo harp flute oboe bugle tuba cymbal ' +
    'saffron ginger pepper nutmeg clove anise basil thyme sage mint cumin fennel sorrel ' +
    'lemon lime mango papaya guava kiwi melon cherry plum peach apricot olive fig date quince ' +
    'arrow bolt spark pixel vector matrix cipher sonic turbo nitro radar laser sabre lancer ranger rover scout pilot ' +
    'baron duke earl count regent consul tribune herald ' +
    'sparrow finch wren lark thrush magpie jay dove swan pelican gannet puffin tern plover ibis egret stork'
  )
    .split(/\s+/)
    .filter((w, i, all) => w.length > 0 && all.indexOf(w) === i),
);

/**
 * pickShardNames returns N names, one per shard in key order, the i-th of
 * which routes to OpenSearch shard i for an index of numberOfShards shards
 * (routingNumShards: OpenSearch's default unless given). Deterministic: for
 * each i in order it takes the first pool word whose routing hash lands on i.
 * When no plain word lands on some shard (likely only beyond ~40 shards with
 * the default pool), it tries the pool words with suffixes 2, 3, … 99 in
 * order ("alpha2"). numberOfShards must be in [1, 1024].
 */
export function pickShardNames(numberOfShards: number, pool: readonly string[] = NAME_POOL, routingNumShards?: number): string[] {
  const names: (string | undefined)[] = new Array(numberOfShards).fill(undefined);
  let missing = numberOfShards;
  for (let suffix = 1; suffix <= 99 && missing > 0; suffix++) {
    for (const w of pool) {
      const name = suffix === 1 ? w : `${w}${suffix}`;
      const i = shardForRouting(name, numberOfShards, routingNumShards);
      if (names[i] === undefined) {
        names[i] = name;
        if (--missing === 0) break;
      }
    }
  }
  if (missing > 0) {
    const i = names.indexOf(undefined);
    throw new RangeError(`numberOfShards ${numberOfShards}: no name from the pool (${pool.length} words, suffixes up to 99) routes to shard ${i}; pass a larger pool`);
  }
  return names as string[];
}
