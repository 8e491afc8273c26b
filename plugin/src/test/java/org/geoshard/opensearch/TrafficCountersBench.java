/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark of {@link TrafficCounters} (issue 39: "memory of the counters stays within its
 * stated bound at 10,000 searches/s; the cost added to a search is measured"). Not a JUnit test
 * (surefire runs *Test classes only): bench/pluginTraffic.bench.ts compiles and runs it and
 * records what it prints. Arguments: seconds (default 130), searches a second (10000), threads (2).
 *
 * <ol>
 *   <li>A pool of real coverings (Coverings.circle, what geo_routing_search computes): circles
 *       of 1 to 50 km around 40 places of the world, jittered by up to a degree.</li>
 *   <li>Cost: the time to count a search's covering against the time to compute that covering,
 *       over the same pool, after a warm-up (the ratio is what counting adds to the processor's
 *       own work; the rest of a search, the shards' work, is far larger).</li>
 *   <li>Rate: {@code threads} threads count searches of the pool, paced by the wall clock to the
 *       rate, and a write into a random cell of the world for every tenth search (so that every
 *       second's write summary fills too), into four indices (the most counted) plus a fifth
 *       (refused: untracked), on the real
 *       clock, for longer than the 120 s the ring keeps, so that every second of every ring holds
 *       a full summary. Every second: the summaries' bytes; at the end the heap retained after a
 *       full GC against before the counters existed.</li>
 *   <li>Accuracy: for one index, the exact counts of every tenth second (kept by the bench
 *       threads beside the counters) against the node's read of that second, and of all those
 *       seconds merged: every count within its stated error, every error within total / 256, and every
 *       cell heavier than total / 256 listed.</li>
 * </ol>
 * Prints one line of JSON.
 */
public final class TrafficCountersBench {
    static final String[] INDICES = { "a", "b", "c", "d" };

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 130;
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;

        // 1. The pool of coverings.
        Random rand = new Random(39);
        double[][] places = new double[40][2];
        for (double[] p : places) {
            p[0] = -55 + rand.nextDouble() * 120;
            p[1] = -180 + rand.nextDouble() * 360;
        }
        int poolSize = 4000;
        double[][] shapes = new double[poolSize][3];
        int[][] pool = new int[poolSize][];
        long cellsInPool = 0;
        for (int i = 0; i < poolSize; i++) {
            double[] p = places[rand.nextInt(places.length)];
            shapes[i][0] = Math.max(-89, Math.min(89, p[0] + (rand.nextDouble() - 0.5) * 2));
            shapes[i][1] = p[1] + (rand.nextDouble() - 0.5) * 2;
            shapes[i][1] = shapes[i][1] > 180 ? shapes[i][1] - 360 : shapes[i][1] < -180 ? shapes[i][1] + 360 : shapes[i][1];
            shapes[i][2] = 1 + rand.nextDouble() * 49;
            pool[i] = Coverings.circle(shapes[i][0], shapes[i][1], shapes[i][2], 100_000);
            cellsInPool += pool[i].length;
        }

        // 2. Cost: counting a covering against computing it (same pool, warmed up, best of 5).
        long[] cost = cost(shapes, pool);
        long coverNs = cost[0];
        long countNs = cost[1];

        // 3. Rate, memory and 4. accuracy.
        System.gc();
        System.gc();
        Thread.sleep(200);
        long heapBefore = usedHeap();
        // The bench threads and the counters see the same instant for each search: a thread sets it
        // before counting (the exact counts are kept by the second the counters used); reads see the
        // real clock.
        ThreadLocal<long[]> at = ThreadLocal.withInitial(() -> new long[1]);
        TrafficCounters counters = new TrafficCounters(() -> {
            long v = at.get()[0];
            return v != 0 ? v : System.currentTimeMillis();
        });
        long startMs = (System.currentTimeMillis() / 1000 + 1) * 1000;
        long endMs = startMs + seconds * 1000L;
        AtomicLong done = new AtomicLong();
        AtomicLong behindMs = new AtomicLong();
        // Exact counts of index "a" for every tenth second, per thread: second -> cell -> count.
        @SuppressWarnings("unchecked")
        Map<Long, Map<Integer, long[]>>[] exact = new Map[threads];
        long[] lastMs = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            final int id = t;
            exact[t] = new HashMap<>();
            ts[t] = new Thread(() -> {
                Random r = new Random(1000 + id);
                double perMs = rate / (double) threads / 1000.0;
                long k = 0;
                while (true) {
                    long due = startMs + (long) Math.floor(k / perMs);
                    if (due >= endMs) break;
                    long now = System.currentTimeMillis();
                    if (due > now) {
                        try {
                            Thread.sleep(due - now);
                        } catch (InterruptedException e) {
                            return;
                        }
                    } else if (now - due > behindMs.get()) behindMs.set(now - due);
                    int[] cells = pool[r.nextInt(poolSize)];
                    int which = (int) (k % 5);
                    String index = which < 4 ? INDICES[which] : "e";
                    long nowMs = System.currentTimeMillis();
                    long s = Math.floorDiv(nowMs, 1000L);
                    at.get()[0] = nowMs;
                    counters.search(index, cells);
                    if (which == 0 && s % 10 == 0) {
                        Map<Integer, long[]> m = exact[id].computeIfAbsent(s, x -> new HashMap<>());
                        for (int c : cells) m.computeIfAbsent(c, x -> new long[1])[0]++;
                    }
                    if (k % 10 == 0) counters.write(INDICES[(int) ((k / 10) % 4)], r.nextInt(S2Cells.CELL_COUNT));
                    k++;
                    done.incrementAndGet();
                    lastMs[id] = nowMs;
                }
            }, "bench-" + t);
            ts[t].start();
        }
        long maxBytes = 0;
        while (System.currentTimeMillis() < endMs) {
            Thread.sleep(1000);
            maxBytes = Math.max(maxBytes, counters.bytes());
        }
        for (Thread t : ts) t.join();
        long ranMs = java.util.Arrays.stream(lastMs).max().getAsLong() + 1 - startMs;
        maxBytes = Math.max(maxBytes, counters.bytes());

        // Accuracy, per checked second and over a 30-second window.
        Map<Long, Map<Integer, Long>> truth = new HashMap<>();
        for (Map<Long, Map<Integer, long[]>> m : exact) {
            for (Map.Entry<Long, Map<Integer, long[]>> e : m.entrySet()) {
                Map<Integer, Long> to = truth.computeIfAbsent(e.getKey(), x -> new HashMap<>());
                for (Map.Entry<Integer, long[]> c : e.getValue().entrySet()) to.merge(c.getKey(), c.getValue()[0], Long::sum);
            }
        }
        long nowSec = System.currentTimeMillis() / 1000;
        int checked = 0;
        int violations = 0;
        long worstError = 0;
        double worstErrorShare = 0;
        long distinctMax = 0;
        long listedCells = 0;
        Map<Integer, Long> windowTruth = new HashMap<>();
        long windowFrom = Long.MAX_VALUE;
        long windowTo = Long.MIN_VALUE;
        long readNs = 0;
        for (Map.Entry<Long, Map<Integer, Long>> e : truth.entrySet()) {
            long s = e.getKey();
            if (s <= nowSec - TrafficCounters.SECONDS + 1) continue;
            long t0 = System.nanoTime();
            CellCounts got = counters.read("a", s, s + 1, 10_000).searchCells;
            readNs = Math.max(readNs, System.nanoTime() - t0);
            violations += violations(got, e.getValue());
            checked++;
            worstError = Math.max(worstError, got.maxError());
            worstErrorShare = Math.max(worstErrorShare, got.maxError() / (double) Math.max(1, got.total));
            distinctMax = Math.max(distinctMax, e.getValue().size());
            listedCells = Math.max(listedCells, got.cells.length);
            {
                for (Map.Entry<Integer, Long> c : e.getValue().entrySet()) windowTruth.merge(c.getKey(), c.getValue(), Long::sum);
                windowFrom = Math.min(windowFrom, s);
                windowTo = Math.max(windowTo, s);
            }
        }
        // The window: the checked seconds of it only hold exact counts, so read those seconds one
        // by one and merge, as the endpoint merges nodes' and seconds' summaries.
        java.util.List<CellCounts> parts = new java.util.ArrayList<>();
        for (long s = windowFrom; s <= windowTo; s += 10) parts.add(counters.read("a", s, s + 1, 10_000).searchCells);
        CellCounts window = CellCounts.merge(parts, 10_000);
        int windowViolations = parts.isEmpty() ? -1 : violations(window, windowTruth);

        // Heap retained: the exact maps dropped, counters alive.
        truth = null;
        for (int t = 0; t < threads; t++) exact[t] = null;
        windowTruth = null;
        System.gc();
        System.gc();
        Thread.sleep(200);
        long heapAfter = usedHeap();
        long bytesNow = counters.bytes();

        System.out.println(String.format(Locale.ROOT,
            "{\"seconds\":%d,\"rateAsked\":%d,\"threads\":%d,\"searches\":%d,\"ratePerSecond\":%.1f,\"maxBehindMs\":%d,"
                + "\"untracked\":%d,\"poolCoverings\":%d,\"meanCellsPerSearch\":%.1f,"
                + "\"coverNsPerSearch\":%.0f,\"countNsPerSearch\":%.0f,\"countOverCover\":%.4f,"
                + "\"maxBytes\":%d,\"boundBytes\":%d,\"bytesAtEnd\":%d,\"heapRetainedBytes\":%d,"
                + "\"checkedSeconds\":%d,\"violations\":%d,\"worstError\":%d,\"worstErrorShare\":%.5f,\"errorBoundShare\":%.5f,"
                + "\"distinctCellsPerSecondMax\":%d,\"listedCellsMax\":%d,\"windowSeconds\":%d,\"windowViolations\":%d,\"windowMaxError\":%d,\"windowTotal\":%d,"
                + "\"readSecondNsMax\":%d,\"javaVersion\":\"%s\"}",
            seconds, rate, threads, done.get(), done.get() * 1000.0 / ranMs, behindMs.get(),
            counters.untracked(), poolSize, cellsInPool / (double) poolSize,
            coverNs / (double) poolSize, countNs / (double) poolSize, countNs / (double) coverNs,
            maxBytes, TrafficCounters.BOUND_BYTES, bytesNow, heapAfter - heapBefore,
            checked, violations, worstError, worstErrorShare, 1.0 / TrafficCounters.CAPACITY,
            distinctMax, listedCells, parts.size(), windowViolations, window.maxError(), window.total,
            readNs, System.getProperty("java.version")));
    }

    /** The best of five timed passes (after two warm-ups) of computing the pool's coverings and of counting them: {coverNs, countNs}. */
    static long[] cost(double[][] shapes, int[][] pool) throws Exception {
        long coverNs = Long.MAX_VALUE;
        long countNs = Long.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 7; round++) {
            long t0 = System.nanoTime();
            for (double[] s : shapes) sink += Coverings.circle(s[0], s[1], s[2], 100_000).length;
            long t1 = System.nanoTime();
            TrafficCounters warm = new TrafficCounters(System::currentTimeMillis);
            long t2 = System.nanoTime();
            for (int[] cells : pool) warm.search("a", cells);
            long t3 = System.nanoTime();
            if (round >= 2) {
                coverNs = Math.min(coverNs, t1 - t0);
                countNs = Math.min(countNs, t3 - t2);
            }
        }
        if (sink == 42) System.out.print("");
        return new long[] { coverNs, countNs };
    }

    static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * The guarantees a summary must keep against the exact counts: each listed count c with error
     * e has c − e ≤ truth ≤ c; each unlisted cell's truth ≤ floor; the largest error ≤ total /
     * capacity × parts (a merge of p summaries: ≤ Σ total_i / capacity = total / capacity); every
     * cell heavier than that is listed. Returns the number of broken ones.
     */
    static int violations(CellCounts got, Map<Integer, Long> truth) {
        int bad = 0;
        Map<Integer, Integer> at = new HashMap<>();
        for (int i = 0; i < got.cells.length; i++) at.put(got.cells[i], i);
        long total = 0;
        for (long x : truth.values()) total += x;
        if (total != got.total) bad++;
        double bound = total / (double) TrafficCounters.CAPACITY;
        if (got.maxError() > bound) bad++;
        for (Map.Entry<Integer, Long> e : truth.entrySet()) {
            Integer i = at.get(e.getKey());
            long x = e.getValue();
            if (i == null) {
                if (x > got.floor || x > bound) bad++;
            } else if (got.counts[i] - got.errors[i] > x || got.counts[i] < x) bad++;
        }
        for (int i = 0; i < got.cells.length; i++) if (!truth.containsKey(got.cells[i])) bad++;
        return bad;
    }
}
