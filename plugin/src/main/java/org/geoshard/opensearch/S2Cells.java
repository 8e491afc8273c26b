/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import com.google.common.geometry.S2CellId;

/**
 * Level-10 cells as the TypeScript core numbers them: a cell's curve ordinal is its position
 * along S2's Hilbert curve among all level-10 cells, in [0, CELL_COUNT), (face << 20 | position).
 *
 * <p>{@link #ordinalAt} places a point exactly as the core (s2js) and the Painless routing
 * pipeline (src/opensearch/painless.ts s2Ordinal) do: the same order of operations with
 * {@link StrictMath} (fdlibm, as V8's Math.sin/cos are). Google's S2 for Java converts with
 * {@link Math}, whose intrinsics may differ in the last bit, so a point a hair from a cell edge
 * could land in the neighbouring cell: placement must not use it.
 */
public final class S2Cells {
    /** The S2 level documents are placed at. */
    public static final int LEVEL = 10;
    /** Number of level-10 cells: 6 * 4^10. */
    public static final int CELL_COUNT = 6 << 20;
    private static final int SHIFT = 2 * (30 - LEVEL) + 1;
    private static final int[] IJ_TO_POS = { 0, 1, 3, 2, 0, 3, 1, 2, 2, 3, 1, 0, 2, 1, 3, 0 };
    private static final int[] POS_TO_ORIENTATION = { 1, 0, 0, 3 };

    private S2Cells() {}

    /**
     * The level-10 ordinal of a point in degrees (lat in [-90, 90], lng finite): LatLng from
     * degrees, Point, face and u, v, s, t, i, j, the Hilbert position of the level-10 parent.
     */
    public static int ordinalAt(double lat, double lng) {
        double deg = Math.PI / 180;
        double phi = lat * deg;
        double theta = lng * deg;
        double cosphi = StrictMath.cos(phi);
        double x = StrictMath.cos(theta) * cosphi;
        double y = StrictMath.sin(theta) * cosphi;
        double z = StrictMath.sin(phi);
        double ax = Math.abs(x);
        double ay = Math.abs(y);
        double az = Math.abs(z);
        int f;
        if (ax > ay) {
            f = ax > az ? 0 : 2;
        } else {
            f = ay > az ? 1 : 2;
        }
        if ((f == 0 && x < 0) || (f == 1 && y < 0) || (f == 2 && z < 0)) f += 3;
        double u;
        double v;
        switch (f) {
            case 0: u = y / x; v = z / x; break;
            case 1: u = -x / y; v = z / y; break;
            case 2: u = -x / z; v = -y / z; break;
            case 3: u = z / x; v = y / x; break;
            case 4: u = z / y; v = -x / y; break;
            default: u = -y / z; v = -x / z; break;
        }
        double su = u >= 0 ? 0.5 * StrictMath.sqrt(1 + 3 * u) : 1 - 0.5 * StrictMath.sqrt(1 - 3 * u);
        double sv = v >= 0 ? 0.5 * StrictMath.sqrt(1 + 3 * v) : 1 - 0.5 * StrictMath.sqrt(1 - 3 * v);
        long li = (long) Math.floor(1073741824.0 * su);
        long lj = (long) Math.floor(1073741824.0 * sv);
        int i = (int) (li < 0 ? 0 : (li > 1073741823 ? 1073741823 : li));
        int j = (int) (lj < 0 ? 0 : (lj > 1073741823 ? 1073741823 : lj));
        int orientation = f & 1;
        int pos = 0;
        for (int k = 29; k >= 20; k--) {
            int p = IJ_TO_POS[(orientation << 2) | (((i >> k) & 1) << 1) | ((j >> k) & 1)];
            pos = (pos << 2) | p;
            orientation ^= POS_TO_ORIENTATION[p];
        }
        return (f << 20) | pos;
    }

    /** The level-10 cell id of an ordinal in [0, CELL_COUNT). */
    public static S2CellId cellOf(int ordinal) {
        return new S2CellId(((long) ordinal << SHIFT) | (1L << (SHIFT - 1)));
    }

    /** The ordinal of a level-10 cell id. */
    public static int ordinalOf(S2CellId id) {
        return (int) (id.id() >>> SHIFT);
    }

    /** The ordinals [first, last] of the level-10 descendants of a cell of level at most 10. */
    public static int firstOrdinal(S2CellId id) {
        return ordinalOf(id.childBegin(LEVEL));
    }

    /** See {@link #firstOrdinal}. */
    public static int lastOrdinal(S2CellId id) {
        return ordinalOf(id.childEnd(LEVEL).prev());
    }

    /** The level-10 token of an ordinal: 6 hex digits (the core's cellToken). */
    public static String token(int ordinal) {
        int bits = (ordinal << 1) | 1;
        StringBuilder s = new StringBuilder(6);
        for (int k = 20; k >= 0; k -= 4) s.append(Character.forDigit((bits >> k) & 15, 16));
        return s.toString();
    }

    /**
     * The ordinal of a canonical level-10 token (6 lower-case hex digits, e.g. "89c25c").
     *
     * @throws IllegalArgumentException naming the field and the token when it is not one
     */
    public static int ordinalOfToken(String token, String field) {
        if (token == null || !token.matches("[0-9a-f]{6}")) {
            throw new IllegalArgumentException(field + " " + quote(token) + " is not a level-10 S2 token: expected 6 lower-case hex digits such as \"89c25c\"");
        }
        int bits = Integer.parseInt(token, 16);
        if ((bits & 1) != 1 || (bits >>> 1) >= CELL_COUNT) {
            throw new IllegalArgumentException(field + " \"" + token + "\" is not a level-10 S2 token (its last bit must be 1 and its face at most 5)");
        }
        return bits >>> 1;
    }

    static String quote(Object v) {
        return v instanceof String ? "\"" + v + "\"" : String.valueOf(v);
    }
}
