/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.junit.Test;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.Strings;
import org.opensearch.index.query.QueryBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The routing the plugin reads from an index's {@code _meta} against the TypeScript core's, on
 * its golden fixtures: the bundled boundary file settled, then a two-range move step by step
 * (pending, dual-write, copying, verified, switched, deleting, done): routing strings of
 * coverings, read and write owners of points, and the copies searches must ignore.
 */
public class RoutingTest {
    @Test
    public void routesAsTheCoreAtEveryStepOfAMove() throws Exception {
        List<Map<String, Object>> states = Fixtures.list(Fixtures.load("routing.json").get("states"));
        assertTrue(states.size() >= 10);
        List<String> wrong = new ArrayList<>();
        int checks = 0;
        for (Map<String, Object> st : states) {
            String label = (String) st.get("label");
            IndexRouting r = IndexRouting.of(Fixtures.map(st.get("meta")), "dishes");
            assertNotNull(label, r);
            for (Map<String, Object> s : Fixtures.list(st.get("shapes"))) {
                String got = r.route(Fixtures.cover(Fixtures.map(s.get("shape")), Integer.MAX_VALUE)).routing;
                checks++;
                if (!got.equals(s.get("routing"))) wrong.add(label + " / " + s.get("label") + ": core " + s.get("routing") + ", Java " + got);
            }
            for (Map<String, Object> p : Fixtures.list(st.get("points"))) {
                int o = S2Cells.ordinalAt(Fixtures.d(p.get("lat")), Fixtures.d(p.get("lng")));
                String read = r.names[r.readIndex(o)];
                List<String> write = new ArrayList<>();
                for (int i : r.writeIndices(o)) write.add(r.names[i]);
                checks++;
                if (!read.equals(p.get("read")) || !write.equals(p.get("write"))) wrong.add(label + " / point " + p.get("lat") + "," + p.get("lng") + ": core read " + p.get("read") + " write " + p.get("write") + ", Java read " + read + " write " + write);
            }
            List<Map<String, Object>> ex = Fixtures.list(st.get("exclusions"));
            assertEquals(label + ": exclusions", ex.size(), r.exclusions.size());
            for (int k = 0; k < ex.size(); k++) {
                IndexRouting.Exclusion x = r.exclusions.get(k);
                assertEquals(label, ex.get(k).get("routing"), x.routing);
                assertEquals(label, ex.get(k).get("start"), S2Cells.token(x.lo));
                assertEquals(label, ex.get(k).get("end"), x.hi == S2Cells.CELL_COUNT ? null : S2Cells.token(x.hi));
            }
        }
        System.out.printf("routing: %d states, %d checks%n", states.size(), checks);
        if (!wrong.isEmpty()) fail(wrong.size() + " routings differ from the core's:\n  " + String.join("\n  ", wrong.subList(0, Math.min(20, wrong.size()))));
    }

    @Test
    public void readsFieldsAndRefusesEditedMeta() throws Exception {
        List<Map<String, Object>> states = Fixtures.list(Fixtures.load("routing.json").get("states"));
        IndexRouting other = IndexRouting.of(Fixtures.map(states.get(1).get("meta")), "x");
        assertEquals("place.point", other.location);
        assertNull(other.childLocation);
        assertNull("not geoshard's _meta", IndexRouting.of(Map.of("app", "other"), "x"));
        Map<String, Object> meta = new java.util.HashMap<>(Fixtures.map(states.get(0).get("meta")));
        meta.put("hash", "0".repeat(64));
        try {
            IndexRouting.of(meta, "dishes");
            fail("a _meta.hash that is not the file's");
        } catch (IndexRouting.MetaException e) {
            assertTrue(e.getMessage(), e.getMessage().contains("index [dishes] _meta.file.hash") && e.getMessage().contains("edited by hand"));
        }
    }

    @Test
    public void theRangeScriptIsTheCores() {
        // scripts/pluginFixtures.test.ts checks the resource is rangeFilter.ts RANGE_SCRIPT; here: the jar carries it.
        assertTrue(GeoRoutingSearchProcessor.RANGE_SCRIPT.contains("int s2Ordinal(double lat, double lng)"));
        assertTrue(GeoRoutingSearchProcessor.RANGE_SCRIPT.contains("params._source"));
        assertTrue(GeoRoutingSearchProcessor.RANGE_SCRIPT.endsWith("return o >= params.lo && o < params.hi ? 1.0 : 0.0;"));
    }

    /**
     * The must_not filters the plugin adds mid-move are routedRequest's (rangeFilter.ts
     * exclusionFilters), clause for clause: the term on _routing, the constant_score over a
     * script_score whose query is the range's padded cell boxes and whose script (RANGE_SCRIPT,
     * min_score 1) reads _source for a point on a cell edge. The JSON OpenSearch writes for the
     * Java builders, without the defaults it adds (boost 1, ...), equals the fixture's; the boxes'
     * degrees agree to 1e-9 (Google's S2 and s2js bound a cell alike but for the last bits).
     */
    @Test
    public void excludesAsRoutedRequestDoes() throws Exception {
        List<Map<String, Object>> states = Fixtures.list(Fixtures.load("routing.json").get("states"));
        int compared = 0;
        for (Map<String, Object> st : states) {
            String label = (String) st.get("label");
            IndexRouting r = IndexRouting.of(Fixtures.map(st.get("meta")), "dishes");
            List<Object> want = new ArrayList<>(Fixtures.list(st.get("filters")));
            List<QueryBuilder> got = GeoRoutingSearchProcessor.exclusionFilters(r);
            assertEquals(label + ": filters", want.size(), got.size());
            for (int k = 0; k < got.size(); k++) {
                String json = Strings.toString(XContentType.JSON, got.get(k)).replace(jsonString(GeoRoutingSearchProcessor.RANGE_SCRIPT), "\"RANGE_SCRIPT\"");
                Object mine = Fixtures.withoutDefaults(org.opensearch.common.xcontent.XContentHelper.convertToMap(org.opensearch.common.xcontent.json.JsonXContent.jsonXContent, json, false));
                String diff = Fixtures.differ(want.get(k), mine, label + " filter " + k);
                if (diff != null) fail(diff + "\n  core: " + want.get(k) + "\n  Java: " + mine);
                compared++;
            }
        }
        assertTrue("states with a move", compared >= 10);
        System.out.printf("exclusion filters: %d compared with routedRequest's%n", compared);
    }

    /** A string as JSON writes it (the script's quotes and line breaks escaped). */
    private static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
