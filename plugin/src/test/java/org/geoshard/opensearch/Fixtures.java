/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.json.JsonXContent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The golden fixtures written by scripts/plugin-fixtures.ts from the TypeScript core (see that script for what each holds). */
final class Fixtures {
    private Fixtures() {}

    static Map<String, Object> load(String name) throws IOException {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + name)) {
            if (in == null) throw new IOException("fixture " + name + " is missing: run npx tsx scripts/plugin-fixtures.ts");
            return XContentHelper.convertToMap(JsonXContent.jsonXContent, new String(in.readAllBytes(), StandardCharsets.UTF_8), false);
        }
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object v) {
        return (List<Map<String, Object>>) v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object v) {
        return (Map<String, Object>) v;
    }

    static double d(Object v) {
        return ((Number) v).doubleValue();
    }

    /** Expands [first, last] runs to ascending ordinals. */
    @SuppressWarnings("unchecked")
    static int[] ordinals(Object runs) {
        List<Integer> out = new ArrayList<>();
        for (List<Number> r : (List<List<Number>>) runs) for (int o = r.get(0).intValue(); o <= r.get(1).intValue(); o++) out.add(o);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The Java covering of a fixture shape (kind circle, box or polygon, as coverShapes.ts writes it). */
    static int[] cover(Map<String, Object> shape, int maxCells) throws Coverings.TooManyCellsException {
        switch ((String) shape.get("kind")) {
            case "circle":
                return Coverings.circle(d(shape.get("lat")), d(shape.get("lng")), d(shape.get("radiusKm")), maxCells);
            case "box":
                return Coverings.box(d(shape.get("top")), d(shape.get("left")), d(shape.get("bottom")), d(shape.get("right")), maxCells);
            default:
                List<Map<String, Object>> pts = list(shape.get("points"));
                double[] lats = new double[pts.size()];
                double[] lngs = new double[pts.size()];
                for (int k = 0; k < pts.size(); k++) {
                    lats[k] = d(pts.get(k).get("lat"));
                    lngs[k] = d(pts.get(k).get("lng"));
                }
                return Coverings.polygon(lats, lngs, maxCells);
        }
    }

    /** The defaults OpenSearch writes into a query's JSON that a request need not give: key, value. */
    private static final Map<String, Object> DEFAULTS = Map.of("boost", 1.0, "adjust_pure_negative", true, "validation_method", "STRICT", "ignore_unmapped", false, "type", "MEMORY");

    /**
     * A query's JSON (maps and lists) in the request's own notation: without the keys DEFAULTS holds
     * at their default value, a term's {"value": x} as x, a box corner's [lon, lat] as {lat, lon},
     * a whole minimum_should_match as a number.
     */
    @SuppressWarnings("unchecked")
    static Object withoutDefaults(Object v) {
        if (v instanceof Map) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                Object d = DEFAULTS.get(e.getKey());
                Object x = withoutDefaults(e.getValue());
                if (d != null && (d.equals(x) || (d instanceof Number && x instanceof Number && ((Number) d).doubleValue() == ((Number) x).doubleValue()))) continue;
                if ((e.getKey().equals("top_left") || e.getKey().equals("bottom_right")) && x instanceof List && ((List<Object>) x).size() == 2) {
                    x = Map.of("lat", ((List<Object>) x).get(1), "lon", ((List<Object>) x).get(0));
                }
                if (e.getKey().equals("term") && x instanceof Map) {
                    Map<String, Object> t = new java.util.LinkedHashMap<>();
                    for (Map.Entry<String, Object> f : ((Map<String, Object>) x).entrySet()) {
                        Object fv = f.getValue();
                        t.put(f.getKey(), fv instanceof Map && ((Map<String, Object>) fv).keySet().equals(java.util.Set.of("value")) ? ((Map<String, Object>) fv).get("value") : fv);
                    }
                    x = t;
                }
                if (e.getKey().equals("minimum_should_match") && x instanceof String && ((String) x).matches("-?\\d+")) x = Integer.parseInt((String) x);
                out.put(e.getKey(), x);
            }
            return out;
        }
        if (v instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object x : (List<Object>) v) out.add(withoutDefaults(x));
            return out;
        }
        return v;
    }

    /** Where two JSON values differ (numbers within 1e-9), or null when they do not. */
    @SuppressWarnings("unchecked")
    static String differ(Object a, Object b, String at) {
        if (a instanceof Number && b instanceof Number) {
            return Math.abs(((Number) a).doubleValue() - ((Number) b).doubleValue()) <= 1e-9 ? null : at + ": " + a + " != " + b;
        }
        if (a instanceof Map && b instanceof Map) {
            Map<String, Object> x = (Map<String, Object>) a;
            Map<String, Object> y = (Map<String, Object>) b;
            if (!x.keySet().equals(y.keySet())) return at + ": keys " + x.keySet() + " != " + y.keySet();
            for (String k : x.keySet()) {
                String d = differ(x.get(k), y.get(k), at + "." + k);
                if (d != null) return d;
            }
            return null;
        }
        if (a instanceof List && b instanceof List) {
            List<Object> x = (List<Object>) a;
            List<Object> y = (List<Object>) b;
            if (x.size() != y.size()) return at + ": " + x.size() + " items != " + y.size();
            for (int k = 0; k < x.size(); k++) {
                String d = differ(x.get(k), y.get(k), at + "[" + k + "]");
                if (d != null) return d;
            }
            return null;
        }
        return java.util.Objects.equals(a, b) ? null : at + ": " + a + " != " + b;
    }
}
