/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.junit.Test;
import org.opensearch.common.io.stream.BytesStreamOutput;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The traffic counters against exact counts kept beside them in a HashMap (the reference): a
 * Space-Saving summary is exact under its capacity and within its stated error past it; merges
 * of seconds and nodes keep the guarantees; the ring forgets seconds older than it keeps; the
 * memory of the arrays never passes the stated bound.
 */
public class TrafficCountersTest {
    /** Adds a stream to a summary and to the reference. */
    private static Map<Integer, Long> feed(SpaceSaving s, int[] stream) {
        Map<Integer, Long> exact = new HashMap<>();
        for (int c : stream) {
            s.add(c);
            exact.merge(c, 1L, Long::sum);
        }
        return exact;
    }

    /** A skewed stream: cell i (of `distinct`) drawn with weight 1 / (i + 1). */
    private static int[] zipf(Random rnd, int n, int distinct) {
        double[] cum = new double[distinct];
        double t = 0;
        for (int i = 0; i < distinct; i++) cum[i] = t += 1.0 / (i + 1);
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            double x = rnd.nextDouble() * t;
            int lo = 0, hi = distinct - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cum[mid] < x) lo = mid + 1;
                else hi = mid;
            }
            out[k] = 1_000_000 + lo * 7919; // ordinals spread over the curve
        }
        return out;
    }

    /** Every guarantee the class comment states, for every cell of the reference. */
    private static void assertWithinError(CellCounts got, Map<Integer, Long> exact, long n, int capacity) {
        assertEquals("total", n, got.total);
        Map<Integer, long[]> listed = new HashMap<>();
        for (long[] r : got.rows()) listed.put((int) r[0], r);
        assertTrue("floor " + got.floor + " ≤ N/k " + n / capacity, got.floor <= n / capacity);
        for (Map.Entry<Integer, Long> e : exact.entrySet()) {
            long truth = e.getValue();
            long[] r = listed.get(e.getKey());
            if (r == null) {
                assertTrue("cell " + e.getKey() + " (" + truth + ") not listed but above floor " + got.floor, truth <= got.floor);
            } else {
                assertTrue("cell " + e.getKey() + ": " + r[1] + " − " + r[2] + " ≤ " + truth + " ≤ " + r[1], r[1] - r[2] <= truth && truth <= r[1]);
                assertTrue("error " + r[2] + " ≤ N/k", r[2] <= n / capacity);
            }
        }
    }

    @Test
    public void exactUnderItsCapacity() {
        SpaceSaving s = new SpaceSaving(256);
        int[] stream = zipf(new Random(1), 50_000, 256);
        Map<Integer, Long> exact = feed(s, stream);
        CellCounts c = s.snapshot();
        assertTrue(c.exact());
        assertEquals(exact.size(), c.cells.length);
        for (long[] r : c.rows()) assertEquals(exact.get((int) r[0]).longValue(), r[1]);
        // Largest first.
        for (int i = 1; i < c.counts.length; i++) assertTrue(c.counts[i - 1] >= c.counts[i]);
    }

    @Test
    public void withinItsErrorPastItsCapacity() {
        for (int seed = 0; seed < 5; seed++) {
            SpaceSaving s = new SpaceSaving(64);
            int[] stream = zipf(new Random(seed), 100_000, 5_000);
            Map<Integer, Long> exact = feed(s, stream);
            CellCounts c = s.snapshot();
            assertFalse(c.exact());
            assertEquals(64, c.cells.length);
            assertWithinError(c, exact, stream.length, 64);
        }
    }

    @Test
    public void aSummaryClearedIsEmptyAndCountsAgain() {
        SpaceSaving s = new SpaceSaving(8);
        feed(s, zipf(new Random(3), 1_000, 100));
        s.clear();
        assertEquals(0, s.total());
        assertEquals(0, s.snapshot().cells.length);
        Map<Integer, Long> exact = feed(s, new int[] { 5, 5, 9 });
        assertEquals(2, s.snapshot().cells.length);
        assertWithinError(s.snapshot(), exact, 3, 8);
        assertTrue(s.snapshot().exact());
    }

    @Test
    public void mergesOfPartsKeepTheGuarantees() {
        Random rnd = new Random(7);
        int parts = 12;
        int k = 64;
        List<CellCounts> summaries = new ArrayList<>();
        Map<Integer, Long> exact = new HashMap<>();
        long n = 0;
        for (int p = 0; p < parts; p++) {
            SpaceSaving s = new SpaceSaving(k);
            int[] stream = zipf(rnd, 5_000 + rnd.nextInt(20_000), 2_000);
            feed(s, stream).forEach((c, x) -> exact.merge(c, x, Long::sum));
            n += stream.length;
            summaries.add(s.snapshot());
        }
        CellCounts all = CellCounts.merge(summaries, Integer.MAX_VALUE);
        assertWithinError(all, exact, n, k);
        CellCounts top = CellCounts.merge(summaries, 50);
        assertEquals(50, top.cells.length);
        assertWithinError(top, exact, n, k);
        // Exact parts merge exactly, the limit aside.
        SpaceSaving a = new SpaceSaving(100), b = new SpaceSaving(100);
        Map<Integer, Long> ea = feed(a, new int[] { 1, 2, 2, 3 });
        Map<Integer, Long> eb = feed(b, new int[] { 2, 3, 3, 4 });
        eb.forEach((c, x) -> ea.merge(c, x, Long::sum));
        CellCounts m = CellCounts.merge(List.of(a.snapshot(), b.snapshot()), 10);
        assertTrue(m.exact());
        assertArrayEquals(new int[] { 2, 3, 1, 4 }, m.cells);
        assertArrayEquals(new long[] { 3, 3, 1, 1 }, m.counts);
        CellCounts two = CellCounts.merge(List.of(a.snapshot(), b.snapshot()), 2);
        assertFalse("a cell dropped by the limit makes the merge inexact", two.exact());
        assertEquals(1, two.floor);
    }

    @Test
    public void travelsOverTheWireUnchanged() throws Exception {
        SpaceSaving s = new SpaceSaving(16);
        feed(s, zipf(new Random(11), 3_000, 200));
        CellCounts c = s.snapshot();
        BytesStreamOutput out = new BytesStreamOutput();
        c.writeTo(out);
        CellCounts back = new CellCounts(out.bytes().streamInput());
        assertArrayEquals(c.cells, back.cells);
        assertArrayEquals(c.counts, back.counts);
        assertArrayEquals(c.errors, back.errors);
        assertEquals(c.floor, back.floor);
        assertEquals(c.total, back.total);
    }

    @Test
    public void countsSecondsAndForgetsWhatItNoLongerKeeps() {
        AtomicLong now = new AtomicLong(1_000_000_000_000L);
        TrafficCounters t = new TrafficCounters(now::get);
        long s0 = now.get() / 1000;
        t.search("dishes", new int[] { 10, 11, 12 });
        t.search("dishes", new int[] { 11 });
        t.write("dishes", 12);
        now.addAndGet(1000);
        t.search("dishes", new int[] { 12 });
        TrafficCounters.Read r = t.read("dishes", s0, s0 + 2, 100);
        assertEquals(3, r.searches);
        assertEquals(1, r.writes);
        assertTrue(r.searchCells.exact());
        assertEquals(5, r.searchCells.total);
        Map<Long, Long> got = new HashMap<>();
        for (long[] row : r.searchCells.rows()) got.put(row[0], row[1]);
        assertEquals(Map.of(10L, 1L, 11L, 2L, 12L, 2L), got);
        // The window [s0, s0 + 1) holds the first second alone.
        assertEquals(2, t.read("dishes", s0, s0 + 1, 100).searches);
        // Another index is counted apart.
        assertEquals(0, t.read("restaurants", s0, s0 + 2, 100).searches);
        // SECONDS later the first second is gone, and heldFrom says so.
        now.addAndGet(TrafficCounters.SECONDS * 1000L);
        TrafficCounters.Read late = t.read("dishes", s0, s0 + 2, 100);
        assertTrue(late.heldFrom > s0 + 1);
        assertEquals(0, late.searches);
        // A second reused by the ring starts from zero.
        t.search("dishes", new int[] { 99 });
        long s = now.get() / 1000;
        TrafficCounters.Read fresh = t.read("dishes", s, s + 1, 100);
        assertEquals(1, fresh.searches);
        assertEquals(1, fresh.searchCells.total);
    }

    @Test
    public void countsAtMostMaxIndicesAndGivesAPlaceUpWhenOneIsIdle() {
        AtomicLong now = new AtomicLong(2_000_000_000_000L);
        TrafficCounters t = new TrafficCounters(now::get);
        for (int i = 0; i < TrafficCounters.MAX_INDICES; i++) t.search("i" + i, new int[] { 1 });
        t.search("extra", new int[] { 1 });
        assertEquals(1, t.untracked());
        now.addAndGet(TrafficCounters.SECONDS * 1000L);
        t.search("extra", new int[] { 1 });
        assertEquals(1, t.untracked());
        long s = now.get() / 1000;
        assertEquals(1, t.read("extra", s, s + 1, 10).searches);
    }

    @Test
    public void itsArraysStayWithinTheStatedBoundWhateverTheTraffic() {
        AtomicLong now = new AtomicLong(3_000_000_000_000L);
        TrafficCounters t = new TrafficCounters(now::get);
        Random rnd = new Random(5);
        int[] covering = new int[400];
        // Every index, every second, both kinds, with far more distinct cells than the capacity.
        for (int sec = 0; sec < TrafficCounters.SECONDS + 10; sec++) {
            for (int i = 0; i < TrafficCounters.MAX_INDICES + 2; i++) {
                for (int q = 0; q < 5; q++) {
                    for (int c = 0; c < covering.length; c++) covering[c] = rnd.nextInt(6 << 20);
                    t.search("i" + i, covering);
                    for (int w = 0; w < 100; w++) t.write("i" + i, rnd.nextInt(6 << 20));
                }
            }
            now.addAndGet(1000);
        }
        assertTrue(t.bytes() + " ≤ " + TrafficCounters.BOUND_BYTES, t.bytes() <= TrafficCounters.BOUND_BYTES);
        assertTrue("the worst case fills the bound: " + t.bytes(), t.bytes() >= TrafficCounters.BOUND_BYTES * 9 / 10);
    }
}
