/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How one geosharded index routes, read from its mapping's {@code _meta} (the TypeScript side:
 * src/opensearch/meta.ts IndexMeta, src/core/shardTable.ts, src/core/migrationState.ts): the
 * settled boundary file ({@code _meta.file}: shard names in key order and the level-10 tokens
 * where each range starts) and, during a move ({@code _meta.migration}), each started range's
 * read owner, write owners and the copy searches must ignore. Immutable; built once per mapping
 * version and shared by every search and write of the index.
 */
public final class IndexRouting {
    /** The fields documents are located by (src/opensearch/routingPipeline.ts PipelineFields). */
    public final String location;
    /** A join child's copy of its parent's point, or null. */
    public final String childLocation;
    /** Parents carry the sample's {@code cell} and {@code shard} stamps. */
    public final boolean stamp;
    /** The settled file's hash ({@code _meta.hash}). */
    public final String hash;
    /** The migration's target hash, or null when settled. */
    public final String target;
    /** The migration's epoch, or 0. */
    public final long epoch;
    /** Shard names in key order. */
    public final String[] names;
    /** Read layout: segment k holds ordinals [readStarts[k], readStarts[k+1]) read from shard readOwners[k]. */
    private final int[] readStarts;
    private final int[] readOwners;
    /** Write layout: segment k written to writeOwners[k] (one or two key-order indices). */
    private final int[] writeStarts;
    private final int[][] writeOwners;
    /** The copies searches ignore: [lo, hi) ordinals routed with a name. */
    public final List<Exclusion> exclusions;

    /** Documents searches ignore during a move: ordinals [lo, hi) whose {@code _routing} is {@code routing}. */
    public static final class Exclusion {
        public final int lo;
        public final int hi;
        public final String routing;

        Exclusion(int lo, int hi, String routing) {
            this.lo = lo;
            this.hi = hi;
            this.routing = routing;
        }
    }

    /** A {@code _meta} that cannot be routed with: the message names the field, its value and what is valid. */
    public static final class MetaException extends Exception {
        private static final long serialVersionUID = 1L;

        MetaException(String message) {
            super(message);
        }
    }

    private static final Map<String, String> PHASE_OF_STEP = new HashMap<>();

    static {
        PHASE_OF_STEP.put("pending", null);
        PHASE_OF_STEP.put("dual-write", "dual-write");
        PHASE_OF_STEP.put("copying", "copying");
        PHASE_OF_STEP.put("verified", "verified");
        PHASE_OF_STEP.put("switched", "switched");
        PHASE_OF_STEP.put("deleting", "done");
        PHASE_OF_STEP.put("done", "done");
    }

    private static final class Move {
        int lo, hi, from, to;
        String phase;
    }

    /**
     * Reads the routing of an index from its {@code _meta} (a map as the mapping holds it).
     * Returns null when {@code meta} is not a geoshard {@code _meta} (no string {@code hash}).
     *
     * @throws MetaException naming the field when the {@code _meta} is geoshard's but cannot be routed with
     */
    public static IndexRouting of(Map<String, Object> meta, String index) throws MetaException {
        if (meta == null || !(meta.get("hash") instanceof String)) return null;
        String where = "index [" + index + "] _meta";
        String hash = (String) meta.get("hash");
        Map<String, Object> file = map(meta.get("file"), where + ".file", "the settled boundary file (written by geoshard seed, reindex or migrate)");
        if (!hash.equals(file.get("hash"))) {
            throw new MetaException(where + ".file.hash " + S2Cells.quote(file.get("hash")) + " is not _meta.hash \"" + hash + "\": the _meta was edited by hand");
        }
        List<Object> shards = list(file.get("shards"), where + ".file.shards", "a list of { name, shard } in key order");
        List<Object> boundaries = list(file.get("boundaries"), where + ".file.boundaries", "a list of level-10 tokens");
        int n = shards.size();
        if (n < 1 || boundaries.size() != n - 1) {
            throw new MetaException(where + ".file.boundaries has " + boundaries.size() + " tokens for " + n + " shards: expected " + Math.max(0, n - 1));
        }
        String[] names = new String[n];
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Object s = shards.get(i);
            Object name = s instanceof Map ? ((Map<?, ?>) s).get("name") : null;
            if (!(name instanceof String) || ((String) name).isEmpty() || byName.containsKey(name)) {
                throw new MetaException(where + ".file.shards[" + i + "].name " + S2Cells.quote(name) + " is not a distinct non-empty shard name");
            }
            names[i] = (String) name;
            byName.put(names[i], i);
        }
        int[] starts = new int[n + 1];
        starts[n] = S2Cells.CELL_COUNT;
        for (int i = 1; i < n; i++) {
            try {
                starts[i] = S2Cells.ordinalOfToken(str(boundaries.get(i - 1)), where + ".file.boundaries[" + (i - 1) + "]");
            } catch (IllegalArgumentException e) {
                throw new MetaException(e.getMessage());
            }
            if (starts[i] <= starts[i - 1]) throw new MetaException(where + ".file.boundaries[" + (i - 1) + "] \"" + boundaries.get(i - 1) + "\" is not after the one before: boundaries ascend in key order");
        }
        // Fields: absent = the restaurant sample's.
        String location = "location";
        String childLocation = "restaurant_location";
        boolean stamp = true;
        if (meta.get("fields") != null) {
            Map<String, Object> f = map(meta.get("fields"), where + ".fields", "{ location, childLocation, stamp }");
            if (!(f.get("location") instanceof String)) throw new MetaException(where + ".fields.location " + S2Cells.quote(f.get("location")) + " is not a field name");
            location = (String) f.get("location");
            Object c = f.get("childLocation");
            if (c != null && !(c instanceof String)) throw new MetaException(where + ".fields.childLocation " + S2Cells.quote(c) + " is not a field name or null");
            childLocation = (String) c;
            stamp = Boolean.TRUE.equals(f.get("stamp"));
        }
        // The migration: each started range's phase (src/core/migrationState.ts routingPhaseOf).
        List<Move> moves = new ArrayList<>();
        String target = null;
        long epoch = 0;
        if (meta.get("migration") != null) {
            Map<String, Object> m = map(meta.get("migration"), where + ".migration", "{ epoch, base, target, targetFile, moves, ... }");
            if (!hash.equals(m.get("base"))) throw new MetaException(where + ".migration.base " + S2Cells.quote(m.get("base")) + " is not _meta.hash \"" + hash + "\": the state belongs to another file");
            if (!(m.get("target") instanceof String) || !((String) m.get("target")).matches("[0-9a-f]{64}")) throw new MetaException(where + ".migration.target " + S2Cells.quote(m.get("target")) + " is not a sha256");
            target = (String) m.get("target");
            epoch = m.get("epoch") instanceof Number ? ((Number) m.get("epoch")).longValue() : 0;
            List<Object> list = list(m.get("moves"), where + ".migration.moves", "a non-empty list of { start, end, from, to, step }");
            int prevEnd = 0;
            for (int k = 0; k < list.size(); k++) {
                String p = where + ".migration.moves[" + k + "]";
                Map<String, Object> mv = map(list.get(k), p, "{ start, end, from, to, step }");
                Object step = mv.get("step");
                if (!(step instanceof String) || !PHASE_OF_STEP.containsKey(step)) throw new MetaException(p + ".step " + S2Cells.quote(step) + " is not a step: expected one of " + PHASE_OF_STEP.keySet());
                Move move = new Move();
                try {
                    move.lo = S2Cells.ordinalOfToken(str(mv.get("start")), p + ".start");
                    move.hi = mv.get("end") == null ? S2Cells.CELL_COUNT : S2Cells.ordinalOfToken(str(mv.get("end")), p + ".end");
                } catch (IllegalArgumentException e) {
                    throw new MetaException(e.getMessage());
                }
                Integer from = byName.get(mv.get("from"));
                Integer to = byName.get(mv.get("to"));
                if (from == null || to == null || from.equals(to)) throw new MetaException(p + " from " + S2Cells.quote(mv.get("from")) + " to " + S2Cells.quote(mv.get("to")) + ": expected two different shard names of the settled file");
                if (move.hi <= move.lo || move.lo < prevEnd) throw new MetaException(p + " [" + mv.get("start") + ", " + mv.get("end") + ") is empty or overlaps the move before: moves ascend in key order");
                if (move.lo < starts[from] || move.hi > starts[from + 1]) throw new MetaException(p + " [" + mv.get("start") + ", " + mv.get("end") + ") is not inside the range of its from shard \"" + names[from] + "\"");
                prevEnd = move.hi;
                move.from = from;
                move.to = to;
                move.phase = PHASE_OF_STEP.get(step);
                if (move.phase != null) moves.add(move);
            }
        }
        return new IndexRouting(names, starts, moves, hash, target, epoch, location, childLocation, stamp);
    }

    private IndexRouting(String[] names, int[] starts, List<Move> moves, String hash, String target, long epoch, String location, String childLocation, boolean stamp) {
        this.names = names;
        this.hash = hash;
        this.target = target;
        this.epoch = epoch;
        this.location = location;
        this.childLocation = childLocation;
        this.stamp = stamp;
        int n = names.length;
        TreeSet<Integer> cuts = new TreeSet<>();
        for (int i = 0; i < n; i++) cuts.add(starts[i]);
        for (Move m : moves) {
            cuts.add(m.lo);
            cuts.add(m.hi);
        }
        cuts.remove(S2Cells.CELL_COUNT);
        IntArray rs = new IntArray();
        IntArray ro = new IntArray();
        IntArray ws = new IntArray();
        List<int[]> wo = new ArrayList<>();
        List<Exclusion> ex = new ArrayList<>();
        for (int cut : cuts) {
            int owner = ownerAt(starts, n, cut);
            Move m = moveAt(moves, cut);
            int read;
            int[] write;
            if (m == null) {
                read = owner;
                write = new int[] { owner };
            } else {
                boolean readsTo = m.phase.equals("switched") || m.phase.equals("done");
                read = readsTo ? m.to : m.from;
                write = m.phase.equals("done") ? new int[] { m.to } : new int[] { m.from, m.to };
            }
            if (ro.size == 0 || ro.last() != read) {
                rs.add(cut);
                ro.add(read);
            }
            if (wo.isEmpty() || !Arrays.equals(wo.get(wo.size() - 1), write)) {
                ws.add(cut);
                wo.add(write);
            }
        }
        for (Move m : moves) {
            boolean ignoresFrom = m.phase.equals("switched") || m.phase.equals("done");
            ex.add(new Exclusion(m.lo, m.hi, names[ignoresFrom ? m.from : m.to]));
        }
        this.readStarts = rs.toArray();
        this.readOwners = ro.toArray();
        this.writeStarts = ws.toArray();
        this.writeOwners = wo.toArray(new int[0][]);
        this.exclusions = List.copyOf(ex);
    }

    private static int ownerAt(int[] starts, int n, int ordinal) {
        return lastAtOrBelow(starts, n, ordinal);
    }

    private static Move moveAt(List<Move> moves, int ordinal) {
        for (Move m : moves) if (ordinal >= m.lo && ordinal < m.hi) return m;
        return null;
    }

    /** The largest k in [0, count) with a[k] <= ordinal (a ascending, a[0] = 0). */
    private static int lastAtOrBelow(int[] a, int count, int ordinal) {
        int lo = 0;
        int hi = count - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (a[mid] <= ordinal) lo = mid;
            else hi = mid - 1;
        }
        return lo;
    }

    /** The key-order index of the shard searches read an ordinal from. */
    public int readIndex(int ordinal) {
        return readOwners[lastAtOrBelow(readStarts, readOwners.length, ordinal)];
    }

    /** The key-order indices of the shards a document at an ordinal is written to (old owner first). */
    public int[] writeIndices(int ordinal) {
        return writeOwners[lastAtOrBelow(writeStarts, writeOwners.length, ordinal)];
    }

    /** The routing of ascending ordinals: [routing string (names in key order), number of shards]. */
    public Route route(int[] ordinals) {
        boolean[] hit = new boolean[names.length];
        int shards = 0;
        // Runs of ordinals in one read segment need one lookup.
        int k = 0;
        while (k < ordinals.length) {
            int seg = lastAtOrBelow(readStarts, readOwners.length, ordinals[k]);
            int end = seg + 1 < readStarts.length ? readStarts[seg + 1] : Integer.MAX_VALUE;
            if (!hit[readOwners[seg]]) {
                hit[readOwners[seg]] = true;
                shards++;
            }
            while (k < ordinals.length && ordinals[k] < end) k++;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < names.length; i++) if (hit[i]) s.append(s.length() == 0 ? "" : ",").append(names[i]);
        return new Route(s.toString(), shards);
    }

    /** A routing string and its number of shards. */
    public static final class Route {
        public final String routing;
        public final int shards;

        Route(String routing, int shards) {
            this.routing = routing;
            this.shards = shards;
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object v, String field, String expected) throws MetaException {
        if (!(v instanceof Map)) throw new MetaException(field + " " + (v == null ? "is absent" : S2Cells.quote(v) + " is not an object") + ": expected " + expected);
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object v, String field, String expected) throws MetaException {
        if (!(v instanceof List)) throw new MetaException(field + " " + (v == null ? "is absent" : "is not a list") + ": expected " + expected);
        return (List<Object>) v;
    }

    private static String str(Object v) {
        return v instanceof String ? (String) v : null;
    }

    private static final class IntArray {
        int[] a = new int[16];
        int size;

        void add(int v) {
            if (size == a.length) a = Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }

        int last() {
            return a[size - 1];
        }

        int[] toArray() {
            return Arrays.copyOf(a, size);
        }
    }
}
