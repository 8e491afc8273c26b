/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.List;
import java.util.Map;

/**
 * {@code geo_routing}: an ingest processor that places a document as the Painless routing pipeline
 * (src/opensearch/routingPipeline.ts ROUTING_SCRIPT) does, from the boundary file and move in the target
 * index's {@code _meta} in the node's cluster state (so it follows a move without being
 * reinstalled):
 * <ol>
 *   <li>the point: the location field, else the child location field (a join child is placed by
 *       its parent's point), as {"lat", "lon"}, "lat,lon" or [lon, lat] in degrees;
 *   <li>its level-10 cell with StrictMath ({@link S2Cells#ordinalAt}), then its range;
 *   <li>no routing on the request: {@code _routing} = the range's read owner; a routing that is
 *       one of the range's write owners (one, or two during a move) is kept; any other fails the
 *       document naming the routing, the cell and the owners expected;
 *   <li>a parent of a stamped index (the restaurant sample) gets {@code cell} and {@code shard}.
 * </ol>
 * Config: {@code hash} (optional: the boundary file the pipeline was installed for; a document
 * of an index whose {@code _meta.hash} and migration target are another file fails).
 */
public final class GeoRoutingIngestProcessor extends AbstractProcessor {
    public static final String TYPE = "geo_routing";

    private final RoutingCache cache;
    private final String hash;
    private final TrafficCounters counters;

    GeoRoutingIngestProcessor(String tag, String description, RoutingCache cache, String hash, TrafficCounters counters) {
        super(tag, description);
        this.cache = cache;
        this.hash = hash;
        this.counters = counters;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public IngestDocument execute(IngestDocument doc) throws Exception {
        String index = doc.getFieldValue("_index", String.class);
        RoutingCache.Entry e;
        try {
            e = cache.get(index);
        } catch (RoutingCache.Unresolved u) {
            throw new IllegalArgumentException(TYPE + ": " + u.getMessage());
        }
        if (e.problem != null) throw new IllegalArgumentException(TYPE + ": " + e.problem);
        IndexRouting r = e.routing;
        if (r == null) throw new IllegalArgumentException(TYPE + ": index [" + e.index + "] has no geoshard _meta (no _meta.hash): there is no boundary file to place the document by");
        if (hash != null && !hash.equals(r.hash) && !hash.equals(r.target)) {
            throw new IllegalArgumentException(TYPE + ": the pipeline was installed for boundary file " + hash + " but index [" + e.index + "] _meta.hash is " + r.hash + ": reinstall the pipeline for the index's file");
        }
        String field = r.location;
        Object loc = doc.getFieldValue(field, Object.class, true);
        boolean child = false;
        if (loc == null && r.childLocation != null) {
            field = r.childLocation;
            loc = doc.getFieldValue(field, Object.class, true);
            child = true;
        }
        if (loc == null) {
            String what = r.childLocation == null ? "no " + r.location : "neither " + r.location + (r.stamp ? " (a restaurant)" : " (a parent)") + " nor " + r.childLocation + (r.stamp ? " (a dish)" : " (a child)");
            throw new IllegalArgumentException(TYPE + ": the document has " + what + ": no point to route it by");
        }
        double[] p = point(loc, field);
        int ordinal = S2Cells.ordinalAt(p[0], p[1]);
        String token = S2Cells.token(ordinal);
        int[] owners = r.writeIndices(ordinal);
        String given = doc.getFieldValue("_routing", String.class, true);
        if (given == null) {
            doc.setFieldValue("_routing", r.names[r.readIndex(ordinal)]);
        } else {
            boolean ok = false;
            StringBuilder expected = new StringBuilder();
            for (int k = 0; k < owners.length; k++) {
                ok |= r.names[owners[k]].equals(given);
                expected.append(k == 0 ? "" : " or ").append(r.names[owners[k]]);
            }
            if (!ok) {
                throw new IllegalArgumentException(TYPE + ": routing \"" + given + "\" is not an owner of cell " + token + " (" + field + " " + p[0] + ", " + p[1] + "): expected " + expected
                    + " (boundary file " + r.hash + ", epoch " + r.epoch + "). The writer routes with another boundary file: update it, or send no routing and let the pipeline route");
            }
        }
        if (!child && r.stamp) {
            doc.setFieldValue("cell", token);
            doc.setFieldValue("shard", doc.getFieldValue("_routing", String.class));
        }
        // The node's traffic counters: one document placed, in its cell (TrafficCounters).
        if (counters != null) counters.write(e.index, ordinal);
        return doc;
    }

    /** [lat, lng] of a point value (the ROUTING_SCRIPT's forms); throws naming the field. */
    static double[] point(Object loc, String field) {
        double lat;
        double lng;
        if (loc instanceof Map) {
            Map<?, ?> m = (Map<?, ?>) loc;
            lat = num(m.get("lat"), field + ".lat");
            lng = num(m.get("lon"), field + ".lon");
        } else if (loc instanceof List) {
            List<?> l = (List<?>) loc;
            if (l.size() < 2) throw new IllegalArgumentException(TYPE + ": " + field + " " + loc + " is not a point: expected [lon, lat]");
            lng = num(l.get(0), field + "[0] (lon)");
            lat = num(l.get(1), field + "[1] (lat)");
        } else if (loc instanceof String) {
            String s = (String) loc;
            int comma = s.indexOf(',');
            if (comma < 0) throw new IllegalArgumentException(TYPE + ": " + field + " \"" + s + "\" is not a point: expected \"lat,lon\" in degrees (geohashes are not read)");
            lat = num(s.substring(0, comma), field + " lat");
            lng = num(s.substring(comma + 1), field + " lon");
        } else {
            throw new IllegalArgumentException(TYPE + ": " + field + " " + loc + " is not a point: expected {\"lat\": .., \"lon\": ..}, \"lat,lon\" or [lon, lat] in degrees");
        }
        if (!(lat >= -90.0 && lat <= 90.0) || Double.isInfinite(lng) || Double.isNaN(lng)) {
            throw new IllegalArgumentException(TYPE + ": " + field + " lat " + lat + ", lon " + lng + " is not a point: lat must be in [-90, 90] and lon finite, in degrees");
        }
        return new double[] { lat, lng };
    }

    private static double num(Object v, String what) {
        if (v instanceof Number) return ((Number) v).doubleValue();
        if (v instanceof String) {
            try {
                return Double.parseDouble(((String) v).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(TYPE + ": " + what + " \"" + v + "\" is not a number of degrees");
            }
        }
        throw new IllegalArgumentException(TYPE + ": " + what + " is not a number of degrees: " + v);
    }

    static final class Factory implements Processor.Factory {
        private final RoutingCache cache;
        private final TrafficCounters counters;

        Factory(RoutingCache cache, TrafficCounters counters) {
            this.cache = cache;
            this.counters = counters;
        }

        @Override
        public Processor create(Map<String, Processor.Factory> factories, String tag, String description, Map<String, Object> config) {
            Object h = config.remove("hash");
            if (h != null && !(h instanceof String && ((String) h).matches("[0-9a-f]{64}"))) {
                throw new IllegalArgumentException("[" + TYPE + "] config hash " + S2Cells.quote(h) + " is not valid: expected the 64-hex-digit sha256 of a boundary file, or no hash");
            }
            if (!config.isEmpty()) throw new IllegalArgumentException("[" + TYPE + "] config has unknown field(s) " + config.keySet() + ": the only valid one is hash");
            return new GeoRoutingIngestProcessor(tag, description, cache, (String) h, counters);
        }
    }
}
