/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * This node's traffic counters: per geosharded index and per second of the clock, the searches
 * geo_routing_search narrowed (and the level-10 cells of their coverings) and the documents
 * geo_routing placed (and their cells), for the last {@value #SECONDS} seconds.
 *
 * <p>Counts per second are exact: {@code searches}, {@code writes} and the totals of cell
 * additions. Cells are counted in a {@link SpaceSaving} summary of {@value #CAPACITY} counters per
 * second and kind: exact while a second's coverings touch at most {@value #CAPACITY} distinct
 * cells on this node; past that, each cell's count is within the summary's error (at most the
 * second's cell additions / {@value #CAPACITY}), and the heaviest cells are kept.
 *
 * <p>Memory, whatever the traffic: at most {@value #MAX_INDICES} indices are counted (a further
 * index is counted only in {@link #untracked()} until one of them has been idle for
 * {@value #SECONDS} s); each holds {@value #SECONDS} seconds × 2 summaries of at most
 * 28 × {@value #CAPACITY} bytes of arrays: {@link #BOUND_BYTES} bytes of arrays in all (about
 * 6.9 MB), plus object headers (a few hundred bytes a summary).
 *
 * <p>Thread-safe: each second of each index is locked while it is counted or read.
 */
final class TrafficCounters {
    /** Seconds kept: a reader must read a second within this long of its end. */
    static final int SECONDS = 120;
    /** Counters per second and kind. */
    static final int CAPACITY = 256;
    /** Indices counted at once. */
    static final int MAX_INDICES = 4;
    /** The most bytes the summaries' arrays hold: indices × seconds × 2 kinds × 28 bytes × capacity. */
    static final long BOUND_BYTES = (long) MAX_INDICES * SECONDS * 2 * 28 * CAPACITY;

    private final LongSupplier clockMs;
    private final Map<String, Ring> byIndex = new ConcurrentHashMap<>();
    private final AtomicLong untracked = new AtomicLong();

    /** @param clockMs the clock, ms since the epoch */
    TrafficCounters(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    /** One second of one index. */
    static final class Second {
        long second = -1;
        long searches;
        long writes;
        SpaceSaving searchCells;
        SpaceSaving writeCells;

        void reset(long s) {
            second = s;
            searches = 0;
            writes = 0;
            if (searchCells != null) searchCells.clear();
            if (writeCells != null) writeCells.clear();
        }
    }

    /** One index's last SECONDS seconds. */
    static final class Ring {
        final Second[] seconds = new Second[SECONDS];
        volatile long lastSecond;

        Ring() {
            for (int i = 0; i < SECONDS; i++) seconds[i] = new Second();
        }

        Second at(long s) {
            Second x = seconds[(int) Math.floorMod(s, (long) SECONDS)];
            if (x.second != s) x.reset(s);
            lastSecond = s;
            return x;
        }
    }

    /** Counts a narrowed search of {@code index} (a concrete index) and the cells of its covering (ordinals). */
    void search(String index, int[] cells) {
        long s = Math.floorDiv(clockMs.getAsLong(), 1000L);
        Ring r = ring(index, s);
        if (r == null) return;
        Second x;
        synchronized (x = r.seconds[(int) Math.floorMod(s, (long) SECONDS)]) {
            r.at(s);
            x.searches++;
            if (x.searchCells == null) x.searchCells = new SpaceSaving(CAPACITY);
            for (int c : cells) x.searchCells.add(c);
        }
    }

    /** Counts a document placed in {@code index} (a concrete index), in the cell of that ordinal. */
    void write(String index, int cell) {
        long s = Math.floorDiv(clockMs.getAsLong(), 1000L);
        Ring r = ring(index, s);
        if (r == null) return;
        Second x;
        synchronized (x = r.seconds[(int) Math.floorMod(s, (long) SECONDS)]) {
            r.at(s);
            x.writes++;
            if (x.writeCells == null) x.writeCells = new SpaceSaving(CAPACITY);
            x.writeCells.add(cell);
        }
    }

    /** The index's ring, made when there is room (an index idle for SECONDS gives its place up); null when there is none. */
    private Ring ring(String index, long now) {
        Ring r = byIndex.get(index);
        if (r != null) return r;
        synchronized (byIndex) {
            r = byIndex.get(index);
            if (r != null) return r;
            if (byIndex.size() >= MAX_INDICES) byIndex.values().removeIf(x -> x.lastSecond <= now - SECONDS);
            if (byIndex.size() >= MAX_INDICES) {
                untracked.incrementAndGet();
                return null;
            }
            r = new Ring();
            r.lastSecond = now;
            byIndex.put(index, r);
            return r;
        }
    }

    /** Searches and writes not counted because MAX_INDICES other indices were being counted. */
    long untracked() {
        return untracked.get();
    }

    /** Bytes the summaries' arrays hold now (never more than BOUND_BYTES). */
    long bytes() {
        long b = 0;
        for (Ring r : byIndex.values()) {
            for (Second x : r.seconds) {
                synchronized (x) {
                    if (x.searchCells != null) b += x.searchCells.bytes();
                    if (x.writeCells != null) b += x.writeCells.bytes();
                }
            }
        }
        return b;
    }

    /** What this node counted for an index over whole seconds [fromSecond, toSecond). */
    static final class Read {
        long searches;
        long writes;
        /** The oldest second this node still holds (seconds before it are gone). */
        long heldFrom;
        CellCounts searchCells = CellCounts.EMPTY;
        CellCounts writeCells = CellCounts.EMPTY;
    }

    /**
     * Reads the seconds [fromSecond, toSecond) of an index, each second's cells merged (at most
     * {@code limit} listed). A second this node has no counts for counts as nothing; whether it was
     * dropped already, the caller sees from {@code heldFrom}.
     */
    Read read(String index, long fromSecond, long toSecond, int limit) {
        Read out = new Read();
        long now = Math.floorDiv(clockMs.getAsLong(), 1000L);
        out.heldFrom = now - SECONDS + 1;
        Ring r = byIndex.get(index);
        if (r == null) return out;
        List<CellCounts> search = new ArrayList<>();
        List<CellCounts> write = new ArrayList<>();
        for (long s = Math.max(fromSecond, out.heldFrom); s < toSecond && s <= now; s++) {
            Second x = r.seconds[(int) Math.floorMod(s, (long) SECONDS)];
            synchronized (x) {
                if (x.second != s) continue;
                out.searches += x.searches;
                out.writes += x.writes;
                if (x.searchCells != null && x.searchCells.total() > 0) search.add(x.searchCells.snapshot());
                if (x.writeCells != null && x.writeCells.total() > 0) write.add(x.writeCells.snapshot());
            }
        }
        out.searchCells = CellCounts.merge(search, limit);
        out.writeCells = CellCounts.merge(write, limit);
        return out;
    }
}
