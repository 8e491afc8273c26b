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
}
