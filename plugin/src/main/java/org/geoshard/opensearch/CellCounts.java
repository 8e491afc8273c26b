/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts of level-10 cells with their error bounds, as a {@link SpaceSaving} summary or a merge of
 * several (seconds, nodes) gives them: each listed cell's {@code count} is an upper bound on how
 * many times it was added and {@code count − error} a lower bound; a cell not listed was added at
 * most {@code floor} times; {@code total} is the exact number of additions. Every count is exact
 * when {@link #exact()}. Listed by count, largest first. Immutable.
 */
final class CellCounts implements Writeable {
    static final CellCounts EMPTY = new CellCounts(new int[0], new long[0], new long[0], 0, 0);

    final int[] cells;
    final long[] counts;
    final long[] errors;
    final long floor;
    final long total;

    private CellCounts(int[] cells, long[] counts, long[] errors, long floor, long total) {
        this.cells = cells;
        this.counts = counts;
        this.errors = errors;
        this.floor = floor;
        this.total = total;
    }

    /** The counts given, sorted by count (largest first, then by cell). */
    static CellCounts of(int[] cells, long[] counts, long[] errors, long floor, long total) {
        Integer[] order = new Integer[cells.length];
        for (int i = 0; i < order.length; i++) order[i] = i;
        java.util.Arrays.sort(order, (a, b) -> counts[a] != counts[b] ? Long.compare(counts[b], counts[a]) : Integer.compare(cells[a], cells[b]));
        int[] c = new int[cells.length];
        long[] n = new long[cells.length];
        long[] e = new long[cells.length];
        for (int i = 0; i < order.length; i++) {
            c[i] = cells[order[i]];
            n[i] = counts[order[i]];
            e[i] = errors[order[i]];
        }
        return new CellCounts(c, n, e, floor, total);
    }

    CellCounts(StreamInput in) throws IOException {
        int n = in.readVInt();
        cells = new int[n];
        counts = new long[n];
        errors = new long[n];
        for (int i = 0; i < n; i++) {
            cells[i] = in.readVInt();
            counts[i] = in.readVLong();
            errors[i] = in.readVLong();
        }
        floor = in.readVLong();
        total = in.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVInt(cells.length);
        for (int i = 0; i < cells.length; i++) {
            out.writeVInt(cells[i]);
            out.writeVLong(counts[i]);
            out.writeVLong(errors[i]);
        }
        out.writeVLong(floor);
        out.writeVLong(total);
    }

    /** Whether every count is exact: no error on a listed cell and nothing left unlisted. */
    boolean exact() {
        if (floor != 0) return false;
        for (long e : errors) if (e != 0) return false;
        return true;
    }

    /** The largest error of a listed cell, or floor if larger: no count here is off by more. */
    long maxError() {
        long m = floor;
        for (long e : errors) m = Math.max(m, e);
        return m;
    }

    /**
     * Merges summaries of disjoint parts of a stream (other seconds, other nodes) into one that
     * lists at most {@code limit} cells. A cell's count is the sum over the parts of its count
     * where listed and the part's floor where not; its lower bound the sum of count − error where
     * listed; the floor the sum of the floors, or the largest count dropped by the limit if larger.
     * The guarantees of the class hold for the merge (Agarwal et al., "Mergeable summaries", 2012).
     */
    static CellCounts merge(List<CellCounts> parts, int limit) {
        long floors = 0;
        long total = 0;
        // Per cell: Σ listed counts, Σ listed lower bounds, Σ floors of the parts that list it.
        Map<Integer, long[]> acc = new HashMap<>();
        for (CellCounts p : parts) {
            floors += p.floor;
            total += p.total;
            for (int i = 0; i < p.cells.length; i++) {
                long[] a = acc.computeIfAbsent(p.cells[i], k -> new long[3]);
                a[0] += p.counts[i];
                a[1] += p.counts[i] - p.errors[i];
                a[2] += p.floor;
            }
        }
        int n = acc.size();
        int[] c = new int[n];
        long[] up = new long[n];
        long[] err = new long[n];
        int i = 0;
        for (Map.Entry<Integer, long[]> en : acc.entrySet()) {
            long[] a = en.getValue();
            c[i] = en.getKey();
            up[i] = a[0] + floors - a[2];
            err[i] = up[i] - a[1];
            i++;
        }
        CellCounts all = of(c, up, err, floors, total);
        if (n <= limit) return all;
        long floor = Math.max(floors, all.counts[limit]);
        return new CellCounts(java.util.Arrays.copyOf(all.cells, limit), java.util.Arrays.copyOf(all.counts, limit), java.util.Arrays.copyOf(all.errors, limit), floor, total);
    }

    /** Writes the fields of this summary into an open object: total, exact, floor, max_error and cells [{cell (token), count, error}]. */
    void toXContent(XContentBuilder b) throws IOException {
        b.field("total", total);
        b.field("exact", exact());
        b.field("floor", floor);
        b.field("max_error", maxError());
        b.startArray("cells");
        for (int i = 0; i < cells.length; i++) {
            b.startObject().field("cell", S2Cells.token(cells[i])).field("count", counts[i]).field("error", errors[i]).endObject();
        }
        b.endArray();
    }

    /** The listed cells as a list of [ordinal, count, error] (tests). */
    List<long[]> rows() {
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) out.add(new long[] { cells[i], counts[i], errors[i] });
        return out;
    }
}
