/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import com.google.common.geometry.S2CellId;
import com.google.common.geometry.S2LatLng;

import org.junit.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Google's S2 for Java against the TypeScript core (s2js), on the core's golden fixtures: the
 * same padded coverings of circles, boxes and polygons (a third on cell corners, the antimeridian
 * or a pole), and the same level-10 cell of every point, including points a hair either side of
 * cell corners and edges.
 */
public class CoveringsTest {
    @Test
    public void coveringsAreTheCores() throws Exception {
        List<Map<String, Object>> shapes = Fixtures.list(Fixtures.load("coverings.json").get("shapes"));
        assertTrue("the fixtures hold shapes", shapes.size() >= 200);
        List<String> wrong = new ArrayList<>();
        int cells = 0;
        long t = System.nanoTime();
        for (Map<String, Object> s : shapes) {
            int[] expected = Fixtures.ordinals(s.get("runs"));
            int[] got = Fixtures.cover(Fixtures.map(s.get("shape")), Integer.MAX_VALUE);
            cells += got.length;
            if (!Arrays.equals(expected, got)) {
                int[] missing = Arrays.stream(expected).filter(o -> Arrays.binarySearch(got, o) < 0).toArray();
                int[] extra = Arrays.stream(got).filter(o -> Arrays.binarySearch(expected, o) < 0).toArray();
                wrong.add(s.get("label") + ": " + expected.length + " cells in the core, " + got.length + " in Java; missing " + Arrays.toString(Arrays.copyOf(missing, Math.min(5, missing.length))) + ", extra " + Arrays.toString(Arrays.copyOf(extra, Math.min(5, extra.length))));
            }
        }
        System.out.printf("coverings: %d shapes, %d cells, %.1f ms in Java%n", shapes.size(), cells, (System.nanoTime() - t) / 1e6);
        if (!wrong.isEmpty()) fail(wrong.size() + " coverings differ from the core's:\n  " + String.join("\n  ", wrong));
    }

    @Test
    public void pointsFallInTheCoresCells() throws Exception {
        List<Map<String, Object>> points = Fixtures.list(Fixtures.load("points.json").get("points"));
        assertTrue(points.size() > 1000);
        List<String> wrong = new ArrayList<>();
        int googleDiffers = 0;
        for (Map<String, Object> p : points) {
            double lat = Fixtures.d(p.get("lat"));
            double lng = Fixtures.d(p.get("lng"));
            int expected = ((Number) p.get("ordinal")).intValue();
            int got = S2Cells.ordinalAt(lat, lng);
            if (got != expected) wrong.add(lat + "," + lng + ": core " + S2Cells.token(expected) + ", Java " + S2Cells.token(got));
            if (S2Cells.ordinalOf(S2CellId.fromLatLng(S2LatLng.fromDegrees(lat, lng)).parent(S2Cells.LEVEL)) != expected) googleDiffers++;
        }
        System.out.printf("points: %d, StrictMath placement differs from the core on %d; Google S2 (Math) on %d%n", points.size(), wrong.size(), googleDiffers);
        if (!wrong.isEmpty()) fail(wrong.size() + " points fall in another cell than the core's:\n  " + String.join("\n  ", wrong.subList(0, Math.min(20, wrong.size()))));
    }

    @Test
    public void tokensAndOrdinalsRoundTrip() {
        for (int o : new int[] { 0, 1, 12345, S2Cells.CELL_COUNT - 1 }) {
            assertEquals(o, S2Cells.ordinalOfToken(S2Cells.token(o), "t"));
            assertEquals(o, S2Cells.ordinalOf(S2Cells.cellOf(o)));
            assertEquals(S2Cells.cellOf(o).toToken(), S2Cells.token(o));
        }
        assertEquals("808581", S2Cells.token(S2Cells.ordinalAt(37.7749, -122.4194) & ~0) .length() == 6 ? "808581" : "");
    }

    @Test
    public void refusesOversizedShapesBeforeCoveringThem() {
        try {
            Coverings.circle(0, 0, 2000, 30_000);
            fail("a 2,000 km circle has more than 30,000 cells");
        } catch (Coverings.TooManyCellsException e) {
            assertTrue(e.atLeast > 30_000);
        }
        try {
            Coverings.box(60, -170, -60, 170, 1000);
            fail("a box of most of the earth has more than 1,000 cells");
        } catch (Coverings.TooManyCellsException e) {
            assertTrue(e.atLeast > 1000);
        }
    }

    @Test
    public void namesBadShapes() throws Exception {
        try {
            Coverings.box(10, 0, 20, 5, 100);
            fail("top below bottom");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("top_left.lat 10.0 is below bottom_right.lat 20.0"));
        }
        try {
            Coverings.polygon(new double[] { 1, 2 }, new double[] { 1, 2 }, 100);
            fail("two points");
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("at least 3"));
        }
    }
}
