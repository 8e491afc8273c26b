/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.common.geo.GeoPoint;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.ConstantScoreQueryBuilder;
import org.opensearch.index.query.GeoBoundingBoxQueryBuilder;
import org.opensearch.index.query.GeoDistanceQueryBuilder;
import org.opensearch.index.query.GeoPolygonQueryBuilder;
import org.opensearch.index.query.GeoValidationMethod;
import org.opensearch.index.query.QueryBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Which level-10 cells a query can match documents in, from its location clauses.
 *
 * <ul>
 *   <li>geo_distance, geo_bounding_box and geo_polygon on the location field, under MUST or
 *       FILTER (top level, or nested in bool clauses that must all match): their coverings;
 *   <li>a bool whose only clauses are SHOULD, with minimum_should_match at least 1, each a location
 *       clause on the location or the child location field (how src/opensearch/routedSearch.ts
 *       geoDistanceFilter writes a join's filter): the union of their coverings;
 *   <li>several such constraints: the intersection;
 *   <li>a location only under SHOULD (otherwise) or MUST_NOT, or none: no constraint (all cells).
 * </ul>
 * Other queries (has_parent, nested, ...) are not looked into: their location clauses are about
 * other documents.
 */
final class QueryShapes {
    private QueryShapes() {}

    /** The search cannot be narrowed: the message says why. */
    static final class NotNarrowed extends Exception {
        private static final long serialVersionUID = 1L;

        NotNarrowed(String reason) {
            super(reason);
        }
    }

    /**
     * The cells of a query (ascending ordinals), or null when it has no location constraint.
     *
     * @throws NotNarrowed when a location clause cannot be covered (invalid, coerced, or more cells than maxCells)
     * @throws Coverings.TooManyCellsException when a covering passes maxCells
     */
    static int[] cellsOf(QueryBuilder q, String location, String childLocation, int maxCells) throws NotNarrowed, Coverings.TooManyCellsException {
        List<int[]> all = new ArrayList<>();
        collect(q, location, childLocation, maxCells, all);
        if (all.isEmpty()) return null;
        int[] out = all.get(0);
        for (int k = 1; k < all.size(); k++) out = Coverings.intersect(out, all.get(k));
        return out;
    }

    private static void collect(QueryBuilder q, String location, String child, int maxCells, List<int[]> out) throws NotNarrowed, Coverings.TooManyCellsException {
        if (q == null) return;
        if (isGeo(q)) {
            // A join child is placed by its copy of its parent's point (childLocation), so a clause
            // on that copy every hit must match narrows exactly as one on the location field does.
            String f = geoField(q);
            if (location.equals(f) || (child != null && child.equals(f))) out.add(cover(q, maxCells));
            return;
        }
        if (q instanceof ConstantScoreQueryBuilder) {
            collect(((ConstantScoreQueryBuilder) q).innerQuery(), location, child, maxCells, out);
            return;
        }
        if (q instanceof BoolQueryBuilder) {
            BoolQueryBuilder b = (BoolQueryBuilder) q;
            for (QueryBuilder c : b.must()) collect(c, location, child, maxCells, out);
            for (QueryBuilder c : b.filter()) collect(c, location, child, maxCells, out);
            if (b.must().isEmpty() && b.filter().isEmpty() && b.mustNot().isEmpty() && !b.should().isEmpty() && atLeastOne(b.minimumShouldMatch())) {
                int[] union = new int[0];
                for (QueryBuilder c : b.should()) {
                    String f = isGeo(c) ? geoField(c) : null;
                    if (f == null || !(f.equals(location) || f.equals(child))) return;
                }
                for (QueryBuilder c : b.should()) {
                    union = Coverings.union(union, cover(c, maxCells));
                    if (union.length > maxCells) throw new Coverings.TooManyCellsException(union.length);
                }
                out.add(union);
            }
        }
    }

    /** minimum_should_match as a whole number of clauses at least 1 ("1", "2"; not percentages or negatives). */
    private static boolean atLeastOne(String msm) {
        if (msm == null) return false;
        try {
            return Integer.parseInt(msm.trim()) >= 1;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isGeo(QueryBuilder q) {
        return q instanceof GeoDistanceQueryBuilder || q instanceof GeoBoundingBoxQueryBuilder || q instanceof GeoPolygonQueryBuilder;
    }

    private static String geoField(QueryBuilder q) {
        if (q instanceof GeoDistanceQueryBuilder) return ((GeoDistanceQueryBuilder) q).fieldName();
        if (q instanceof GeoBoundingBoxQueryBuilder) return ((GeoBoundingBoxQueryBuilder) q).fieldName();
        return ((GeoPolygonQueryBuilder) q).fieldName();
    }

    private static int[] cover(QueryBuilder q, int maxCells) throws NotNarrowed, Coverings.TooManyCellsException {
        try {
            if (q instanceof GeoDistanceQueryBuilder) {
                GeoDistanceQueryBuilder g = (GeoDistanceQueryBuilder) q;
                noCoerce(g.getValidationMethod(), "geo_distance");
                GeoPoint p = g.point();
                // The distance in metres, as the query holds it; the core's radius is in km.
                return Coverings.circle(p.lat(), p.lon(), g.distance() / 1000.0, maxCells);
            }
            if (q instanceof GeoBoundingBoxQueryBuilder) {
                GeoBoundingBoxQueryBuilder g = (GeoBoundingBoxQueryBuilder) q;
                noCoerce(g.getValidationMethod(), "geo_bounding_box");
                GeoPoint tl = g.topLeft();
                GeoPoint br = g.bottomRight();
                return Coverings.box(tl.lat(), tl.lon(), br.lat(), br.lon(), maxCells);
            }
            GeoPolygonQueryBuilder g = (GeoPolygonQueryBuilder) q;
            noCoerce(g.getValidationMethod(), "geo_polygon");
            List<GeoPoint> pts = g.points();
            double[] lats = new double[pts.size()];
            double[] lngs = new double[pts.size()];
            for (int k = 0; k < pts.size(); k++) {
                lats[k] = pts.get(k).lat();
                lngs[k] = pts.get(k).lon();
            }
            return Coverings.polygon(lats, lngs, maxCells);
        } catch (IllegalArgumentException e) {
            throw new NotNarrowed("the " + q.getName() + " clause cannot be covered: " + e.getMessage());
        }
    }

    private static void noCoerce(GeoValidationMethod m, String what) throws NotNarrowed {
        if (GeoValidationMethod.isCoerce(m)) {
            throw new NotNarrowed("the " + what + " clause has validation_method COERCE: the engine normalizes its points, so its covering is not computed (use STRICT, the default)");
        }
    }
}
