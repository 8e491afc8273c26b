/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

/**
 * A Space-Saving summary (Metwally, Agrawal and El Abbadi, "Efficient computation of frequent and
 * top-k elements in data streams", 2005) of level-10 cell ordinals: at most {@code capacity}
 * counters, whatever the stream.
 *
 * <p>Guarantees, for a stream of N additions: while at most {@code capacity} distinct cells
 * have been added, every count is exact (error 0). Past that, each kept cell's count c and error
 * e satisfy c − e ≤ true count ≤ c, a cell not kept was added at most {@link #floor()} times, and
 * floor ≤ N / capacity; every cell added more than N / capacity times is kept.
 *
 * <p>Memory: five int arrays of the current size and a hash table of twice it (28 bytes a
 * counter), grown by doubling from 16 up to {@code capacity}: at most 28 × capacity bytes plus
 * the arrays' headers. Not thread-safe: the caller locks.
 */
final class SpaceSaving {
    private static final int INITIAL = 16;
    final int capacity;
    private int size;
    private long total;
    /** Whether a counter has been given up since the last clear: until then every count is exact. */
    private boolean evicted;
    /** By slot: the cell, its count (an upper bound), its error (count − error is a lower bound). */
    private int[] keys;
    private int[] counts;
    private int[] errors;
    /** A min-heap of slots by count, and each slot's place in it. */
    private int[] heap;
    private int[] place;
    /** Open addressing, linear probing: slot + 1, or 0 for empty. Length a power of two, twice the slots'. */
    private int[] table;

    /** @param capacity the most counters kept, at least 1 */
    SpaceSaving(int capacity) {
        if (capacity < 1) throw new IllegalArgumentException("capacity " + capacity + " is invalid: expected at least 1 counter");
        this.capacity = capacity;
        allocate(Math.min(capacity, INITIAL));
    }

    private void allocate(int n) {
        keys = new int[n];
        counts = new int[n];
        errors = new int[n];
        heap = new int[n];
        place = new int[n];
        table = new int[Integer.highestOneBit(n * 2 - 1) << 1];
    }

    /** Forgets everything (keeps the arrays: a reused summary allocates nothing). */
    void clear() {
        size = 0;
        total = 0;
        evicted = false;
        java.util.Arrays.fill(table, 0);
    }

    /** The number of additions since the last clear (exact). */
    long total() {
        return total;
    }

    /** The cells kept. */
    int size() {
        return size;
    }

    /** How many times a cell not kept was added, at most: the smallest count once a counter has been given up, else 0. */
    int floor() {
        return evicted ? counts[heap[0]] : 0;
    }

    /** Bytes held by the arrays (their contents, not the headers). */
    long bytes() {
        return 4L * (5L * keys.length + table.length);
    }

    /** Adds one occurrence of a cell ordinal. */
    void add(int cell) {
        total++;
        int slot = find(cell);
        if (slot >= 0) {
            counts[slot]++;
            siftDown(place[slot]);
            return;
        }
        if (size < capacity) {
            if (size == keys.length) grow();
            slot = size++;
            keys[slot] = cell;
            counts[slot] = 1;
            errors[slot] = 0;
            heap[slot] = slot;
            place[slot] = slot;
            siftUp(slot);
            insert(cell, slot);
            return;
        }
        // Every counter is taken: the cell with the smallest count gives its counter up.
        evicted = true;
        slot = heap[0];
        remove(keys[slot]);
        int min = counts[slot];
        keys[slot] = cell;
        counts[slot] = min + 1;
        errors[slot] = min;
        insert(cell, slot);
        siftDown(0);
    }

    /** The summary as it is now: cells, counts, errors, floor and total. */
    CellCounts snapshot() {
        int[] c = new int[size];
        long[] n = new long[size];
        long[] e = new long[size];
        for (int s = 0; s < size; s++) {
            c[s] = keys[s];
            n[s] = counts[s];
            e[s] = errors[s];
        }
        return CellCounts.of(c, n, e, floor(), total);
    }

    private void grow() {
        int[] k = keys, n = counts, e = errors, h = heap, p = place;
        allocate(Math.min(capacity, keys.length * 2));
        System.arraycopy(k, 0, keys, 0, size);
        System.arraycopy(n, 0, counts, 0, size);
        System.arraycopy(e, 0, errors, 0, size);
        System.arraycopy(h, 0, heap, 0, size);
        System.arraycopy(p, 0, place, 0, size);
        for (int s = 0; s < size; s++) insert(keys[s], s);
    }

    private int bucket(int cell) {
        return (cell * 0x9E3779B9) >>> 7 & (table.length - 1);
    }

    private int find(int cell) {
        int mask = table.length - 1;
        for (int i = bucket(cell);; i = (i + 1) & mask) {
            int s = table[i];
            if (s == 0) return -1;
            if (keys[s - 1] == cell) return s - 1;
        }
    }

    private void insert(int cell, int slot) {
        int mask = table.length - 1;
        int i = bucket(cell);
        while (table[i] != 0) i = (i + 1) & mask;
        table[i] = slot + 1;
    }

    /** Removes a cell from the table by backward shifting (no tombstones: the table never fills with them). */
    private void remove(int cell) {
        int mask = table.length - 1;
        int i = bucket(cell);
        while (keys[table[i] - 1] != cell) i = (i + 1) & mask;
        for (int j = i;;) {
            j = (j + 1) & mask;
            int s = table[j];
            if (s == 0) break;
            int h = bucket(keys[s - 1]);
            // An entry whose home lies cyclically in (i, j] stays where it is.
            if (i <= j ? (i < h && h <= j) : (i < h || h <= j)) continue;
            table[i] = s;
            i = j;
        }
        table[i] = 0;
    }

    private void siftUp(int at) {
        int s = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (counts[heap[parent]] <= counts[s]) break;
            heap[at] = heap[parent];
            place[heap[at]] = at;
            at = parent;
        }
        heap[at] = s;
        place[s] = at;
    }

    private void siftDown(int at) {
        int s = heap[at];
        for (;;) {
            int child = 2 * at + 1;
            if (child >= size) break;
            if (child + 1 < size && counts[heap[child + 1]] < counts[heap[child]]) child++;
            if (counts[heap[child]] >= counts[s]) break;
            heap[at] = heap[child];
            place[heap[at]] = at;
            at = child;
        }
        heap[at] = s;
        place[s] = at;
    }
}
