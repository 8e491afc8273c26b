/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import com.google.common.geometry.R1Interval;
import com.google.common.geometry.S1Angle;
import com.google.common.geometry.S1Interval;
import com.google.common.geometry.S2Cap;
import com.google.common.geometry.S2Cell;
import com.google.common.geometry.S2CellId;
import com.google.common.geometry.S2LatLng;
import com.google.common.geometry.S2LatLngRect;
import com.google.common.geometry.S2Point;
import com.google.common.geometry.S2Region;
import com.google.common.geometry.S2RegionCoverer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Level-10 coverings of geo_distance circles, geo_bounding_box boxes and geo_polygon rings with
 * Google's S2 for Java (S2RegionCoverer over S2Cap and S2LatLngRect): every level-10 cell that can
 * hold a document the engine's query matches. The rules are the TypeScript core's
 * (src/core/coverShapes.ts), implemented independently and checked against its golden fixtures:
 * each shape is grown by {@link #PAD_DEG} because the engine matches points quantized to about
 * 1 cm; a polygon is planar in (lng, lat) degrees (Lucene's Polygon), its boundary held by a band
 * of padded boxes (edges cut into pieces of at most {@link #PIECE_DEG}) and its interior found by
 * the even-odd test of cell centres. Ordinals are level-10 curve ordinals ({@link S2Cells}).
 */
public final class Coverings {
    /** The pad of every shape, degrees (an angle for circles). */
    public static final double PAD_DEG = 1e-6;
    /** A polygon edge is cut into pieces at most this long on each axis, degrees. */
    public static final double PIECE_DEG = 1.0 / 32;
    /** Mean earth radius of the core, km. */
    public static final double EARTH_RADIUS_KM = 6371.0088;
    /** S2's largest level-10 cell area, steradians (kMaxArea derivative / 4^10). */
    public static final double MAX_CELL_AREA_SR = 2.635799256963161491 / (1 << 20);
    private static final double RAD = Math.PI / 180;

    private Coverings() {}

    /** A covering would have more cells than allowed. */
    public static final class TooManyCellsException extends Exception {
        private static final long serialVersionUID = 1L;
        public final int atLeast;

        TooManyCellsException(int atLeast) {
            super("the covering has at least " + atLeast + " level-10 cells");
            this.atLeast = atLeast;
        }
    }

    private static S2RegionCoverer coverer() {
        return S2RegionCoverer.builder().setMinLevel(S2Cells.LEVEL).setMaxLevel(S2Cells.LEVEL).setMaxCells(Integer.MAX_VALUE).build();
    }

    private static int[] cover(S2Region region, int maxCells) throws TooManyCellsException {
        ArrayList<S2CellId> cells = new ArrayList<>();
        coverer().getCovering(region, cells);
        int[] out = new int[cells.size()];
        int n = 0;
        for (S2CellId id : cells) {
            // The coverer answers at level 10 exactly (min = max); a coarser cell would be a bug: expand it anyway.
            if (id.level() == S2Cells.LEVEL) out[n++] = S2Cells.ordinalOf(id);
            else {
                int first = S2Cells.firstOrdinal(id);
                int last = S2Cells.lastOrdinal(id);
                if (n + last - first + 1 > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, n + last - first + 1));
                for (int o = first; o <= last; o++) out[n++] = o;
            }
            if (n > maxCells) throw new TooManyCellsException(n);
        }
        int[] sorted = Arrays.copyOf(out, n);
        Arrays.sort(sorted);
        return dedupe(sorted);
    }

    static int[] dedupe(int[] a) {
        int n = 0;
        for (int k = 0; k < a.length; k++) if (k == 0 || a[k] != a[k - 1]) a[n++] = a[k];
        return n == a.length ? a : Arrays.copyOf(a, n);
    }

    static void checkPoint(double lat, double lng, String what) {
        if (!(lat >= -90 && lat <= 90)) throw new IllegalArgumentException(what + ".lat " + lat + " is not a latitude: expected degrees in [-90, 90]");
        if (!(lng >= -180 && lng <= 180)) throw new IllegalArgumentException(what + ".lon " + lng + " is not a longitude: expected degrees in [-180, 180]");
    }

    /** The padded cap of a circle (radius in km; angle radiusKm / EARTH_RADIUS_KM + PAD_DEG, at most pi). */
    public static S2Cap paddedCap(double lat, double lng, double radiusKm) {
        checkPoint(lat, lng, "circle");
        if (!(radiusKm > 0) || Double.isInfinite(radiusKm)) throw new IllegalArgumentException("circle radius " + radiusKm + " km is not a radius: expected a finite number above 0");
        double angle = Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM + PAD_DEG * RAD);
        return S2Cap.fromAxisAngle(S2LatLng.fromDegrees(lat, lng).toPoint(), S1Angle.radians(angle));
    }

    /** A lower bound on a circle's cells: its area over the largest cell's. */
    public static long minCellsOfCircle(double radiusKm) {
        double angle = Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM);
        return (long) Math.floor(2 * Math.PI * (1 - Math.cos(angle)) / MAX_CELL_AREA_SR);
    }

    /** A lower bound on a box's cells: its area over the largest cell's. */
    public static long minCellsOfBox(double top, double left, double bottom, double right) {
        double dlng = (left > right ? right + 360 : right) - left;
        return (long) Math.floor((Math.sin(top * RAD) - Math.sin(bottom * RAD)) * dlng * RAD / MAX_CELL_AREA_SR);
    }

    /** The padded covering of a circle: ascending ordinals. */
    public static int[] circle(double lat, double lng, double radiusKm, int maxCells) throws TooManyCellsException {
        long min = minCellsOfCircle(radiusKm);
        if (min > maxCells) throw new TooManyCellsException((int) Math.min(Integer.MAX_VALUE, min));
        return cover(paddedCap(lat, lng, radiusKm), maxCells);
    }

    /** Longitudes [west, east] in degrees as an S1 interval (crosses: east of west over the antimeridian); full at 360 degrees or more. */
    static S1Interval lngInterval(double west, double east, boolean crosses) {
        double span = (crosses ? east + 360 : east) - west;
        if (span >= 360) return S1Interval.full();
        double lo = wrap(west) * RAD;
        double hi = wrap(east) * RAD;
        // s2js's Interval.fromEndpoints: -pi stands for pi unless the other end is pi.
        if (lo == -Math.PI && hi != Math.PI) lo = Math.PI;
        if (hi == -Math.PI && lo != Math.PI) hi = Math.PI;
        return new S1Interval(lo, hi);
    }

    private static double wrap(double x) {
        return x > 180 ? x - 360 : x < -180 ? x + 360 : x;
    }

    /** The rectangle of latitudes [south - pad, north + pad] (clamped) and longitudes [west - pad, east + pad] (wrapping). */
    static S2LatLngRect paddedRect(double south, double north, double west, double east, boolean crosses) {
        R1Interval lat = new R1Interval(Math.max(-90, south - PAD_DEG) * RAD, Math.min(90, north + PAD_DEG) * RAD);
        return new S2LatLngRect(lat, lngInterval(west - PAD_DEG, east + PAD_DEG, crosses));
    }

    /**
     * A rectangle whose cell test is exact ({@link S2LatLngRect#intersects(S2Cell)}): S2LatLngRect's
     * own mayIntersect only compares the cell's bounding rectangle, which would take cells that
     * do not meet the rectangle (the core's covering does not).
     */
    static final class ExactRect implements S2Region {
        final S2LatLngRect rect;

        ExactRect(S2LatLngRect rect) {
            this.rect = rect;
        }

        @Override
        public S2Cap getCapBound() {
            return rect.getCapBound();
        }

        @Override
        public S2LatLngRect getRectBound() {
            return rect;
        }

        @Override
        public boolean contains(S2Cell cell) {
            return rect.contains(cell);
        }

        @Override
        public boolean contains(S2Point p) {
            return rect.contains(p);
        }

        /**
         * S2LatLngRect.intersects(S2Cell), and a cell whose corner is a pole the rectangle reaches:
         * Java's rectangle tests a pole by its longitude (0 by convention), so a rectangle reaching
         * latitude 90 away from longitude 0 would leave out the cells that meet it only at the pole,
         * one of which holds a document at the pole (s2js counts them in).
         */
        @Override
        public boolean mayIntersect(S2Cell cell) {
            if (rect.intersects(cell)) return true;
            for (int k = 0; k < 4; k++) {
                S2Point v = cell.getVertex(k);
                if (v.getX() == 0 && v.getY() == 0 && rect.lat().contains(v.getZ() > 0 ? Math.PI / 2 : -Math.PI / 2)) return true;
            }
            return false;
        }
    }

    /** The padded covering of a geo_bounding_box (top >= bottom; left > right crosses the antimeridian): ascending ordinals. */
    public static int[] box(double top, double left, double bottom, double right, int maxCells) throws TooManyCellsException {
        checkPoint(top, left, "top_left");
        checkPoint(bottom, right, "bottom_right");
        if (top < bottom) throw new IllegalArgumentException("top_left.lat " + top + " is below bottom_right.lat " + bottom + ": the top must be at or above the bottom");
        long min = minCellsOfBox(top, left, bottom, right);
        if (min > maxCells) throw new TooManyCellsException((int) Math.min(Integer.MAX_VALUE, min));
        return cover(new ExactRect(paddedRect(bottom, top, left, right, left > right)), maxCells);
    }

    /** The ring without a closing repeat: lats[k], lngs[k]. Throws naming a bad point or too few points. */
    static double[][] ring(double[] lats, double[] lngs) {
        int n = lats.length;
        for (int k = 0; k < n; k++) checkPoint(lats[k], lngs[k], "points[" + k + "]");
        if (n > 1 && lats[0] == lats[n - 1] && lngs[0] == lngs[n - 1]) n--;
        if (n < 3) throw new IllegalArgumentException("the polygon has " + n + " distinct point(s): a polygon needs at least 3");
        return new double[][] { Arrays.copyOf(lats, n), Arrays.copyOf(lngs, n) };
    }

    /** The even-odd test of a point in a ring in the (lng, lat) plane, degrees (the core's insideRing, operation for operation). */
    static boolean insideRing(double[] lats, double[] lngs, double lat, double lng) {
        boolean inside = false;
        int n = lats.length;
        for (int i = 0, j = n - 1; i < n; j = i++) {
            double yi = lats[i];
            double yj = lats[j];
            if ((yi > lat) != (yj > lat)) {
                double xi = lngs[i];
                double xj = lngs[j];
                if (lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
            }
        }
        return inside;
    }

    /** The band pieces of a ring: [south, north, west, east] of each piece of each edge (the core's polygonPieces). */
    static List<double[]> pieces(double[] lats, double[] lngs) {
        List<double[]> out = new ArrayList<>();
        int len = lats.length;
        for (int i = 0; i < len; i++) {
            double alat = lats[i], alng = lngs[i];
            double blat = lats[(i + 1) % len], blng = lngs[(i + 1) % len];
            int n = (int) Math.max(1, Math.ceil(Math.max(Math.abs(blat - alat), Math.abs(blng - alng)) / PIECE_DEG));
            for (int k = 0; k < n; k++) {
                double lat0 = alat + ((blat - alat) * k) / n;
                double lng0 = alng + ((blng - alng) * k) / n;
                double lat1 = k + 1 == n ? blat : alat + ((blat - alat) * (k + 1)) / n;
                double lng1 = k + 1 == n ? blng : alng + ((blng - alng) * (k + 1)) / n;
                out.add(new double[] { Math.min(lat0, lat1), Math.max(lat0, lat1), Math.min(lng0, lng1), Math.max(lng0, lng1) });
            }
        }
        return out;
    }

    /** The padded covering of a geo_polygon ring (lats[k], lngs[k], closed or not): ascending ordinals. */
    public static int[] polygon(double[] rawLats, double[] rawLngs, int maxCells) throws TooManyCellsException {
        double[][] r = ring(rawLats, rawLngs);
        double[] lats = r[0];
        double[] lngs = r[1];
        S2RegionCoverer coverer = coverer();
        ArrayList<S2CellId> cells = new ArrayList<>();
        IntList band = new IntList();
        for (double[] p : pieces(lats, lngs)) {
            cells.clear();
            coverer.getCovering(new ExactRect(paddedRect(p[0], p[1], p[2], p[3], false)), cells);
            for (S2CellId id : cells) for (int o = S2Cells.firstOrdinal(id); o <= S2Cells.lastOrdinal(id); o++) band.add(o);
            if (band.size > 8L * maxCells + 64) throw new TooManyCellsException(band.size);
        }
        int[] bandSorted = dedupe(band.sorted());
        IntList out = new IntList();
        for (int face = 0; face < 6; face++) visit(S2CellId.fromFace(face), bandSorted, lats, lngs, out, maxCells);
        return out.toArray();
    }

    private static void visit(S2CellId id, int[] band, double[] lats, double[] lngs, IntList out, int maxCells) throws TooManyCellsException {
        int first = S2Cells.firstOrdinal(id);
        int last = S2Cells.lastOrdinal(id);
        int k = Arrays.binarySearch(band, first);
        if (k < 0) k = -k - 1;
        if (k < band.length && band[k] <= last) {
            if (id.level() == S2Cells.LEVEL) out.add(first);
            else for (S2CellId child = id.childBegin(); !child.equals(id.childEnd()); child = child.next()) visit(child, band, lats, lngs, out, maxCells);
        } else {
            S2LatLng c = new S2LatLng(id.toPoint());
            if (insideRing(lats, lngs, c.latDegrees(), c.lngDegrees())) for (int o = first; o <= last; o++) out.add(o);
        }
        if (out.size > maxCells) throw new TooManyCellsException(out.size);
    }

    /** A growable int array. */
    static final class IntList {
        int[] a = new int[64];
        int size;

        void add(int v) {
            if (size == a.length) a = Arrays.copyOf(a, size * 2);
            a[size++] = v;
        }

        int[] toArray() {
            return Arrays.copyOf(a, size);
        }

        int[] sorted() {
            int[] s = toArray();
            Arrays.sort(s);
            return s;
        }
    }

    /** The ordinals in both ascending arrays. */
    public static int[] intersect(int[] a, int[] b) {
        IntList out = new IntList();
        for (int i = 0, j = 0; i < a.length && j < b.length;) {
            if (a[i] < b[j]) i++;
            else if (a[i] > b[j]) j++;
            else {
                out.add(a[i]);
                i++;
                j++;
            }
        }
        return out.toArray();
    }

    /** The ordinals in either ascending array. */
    public static int[] union(int[] a, int[] b) {
        IntList out = new IntList();
        int i = 0, j = 0;
        while (i < a.length || j < b.length) {
            if (j >= b.length || (i < a.length && a[i] < b[j])) out.add(a[i++]);
            else if (i >= a.length || b[j] < a[i]) out.add(b[j++]);
            else {
                out.add(a[i]);
                i++;
                j++;
            }
        }
        return out.toArray();
    }
}
