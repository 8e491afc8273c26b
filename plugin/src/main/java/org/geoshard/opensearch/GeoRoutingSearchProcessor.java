/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import com.google.common.geometry.S2Cell;
import com.google.common.geometry.S2CellId;
import com.google.common.geometry.S2LatLngRect;

import org.opensearch.action.search.SearchRequest;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.script.Script;
import org.opensearch.script.ScriptType;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.pipeline.AbstractProcessor;
import org.opensearch.search.pipeline.PipelineProcessingContext;
import org.opensearch.search.pipeline.Processor;
import org.opensearch.search.pipeline.SearchRequestProcessor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code geo_routing_search}: a search request processor that narrows a search of a geosharded
 * index to the shards its location clauses can match documents on, from the index's mapping
 * {@code _meta} in the node's cluster state, and says what it did (the request's pipeline context
 * for {@code geo_routing_report}, which writes {@code ext.geoshard}, and the
 * {@code X-Geoshard-Routing} response header).
 *
 * <p>Config: {@code hash} (optional, 64 hex digits: the boundary file the pipeline was installed
 * for; a search of an index whose {@code _meta.hash} and migration target are both another file
 * is not narrowed), {@code max_cells} (optional, default {@value #DEFAULT_MAX_CELLS}: a covering
 * with more level-10 cells is not narrowed). A search is never narrowed when the client set a
 * routing, is a point-in-time search, names several indices, or the index has no readable
 * geoshard {@code _meta}. A search that is not narrowed is left as it is (during a move, the
 * exclusions go only with a narrowed search, as routedRequest adds them to the searches it routes).
 */
public final class GeoRoutingSearchProcessor extends AbstractProcessor implements SearchRequestProcessor {
    public static final String TYPE = "geo_routing_search";
    /** The default cap on covering cells: every circle up to ~700 km radius (a 1,000 km one has 39,000-47,000 cells). */
    public static final int DEFAULT_MAX_CELLS = 30_000;
    /** The pipeline-context attribute that carries the report to geo_routing_report. */
    public static final String REPORT_ATTRIBUTE = "geoshard.report";
    /** The response header that carries the report as one line of JSON. */
    public static final String HEADER = "X-Geoshard-Routing";
    /** src/opensearch/rangeFilter.ts RANGE_SCRIPT, generated into the jar by scripts/plugin-fixtures.ts. */
    public static final String RANGE_SCRIPT = resource("range-script.painless");
    /** rangeFilter.ts RANGE_MIN_SCORE: RANGE_SCRIPT answers 1 for a document of the range, 0 for any other. */
    public static final float RANGE_MIN_SCORE = 1f;

    private final RoutingCache cache;
    private final String hash;
    private final int maxCells;
    private final ThreadContext threadContext;
    private final TrafficCounters counters;

    GeoRoutingSearchProcessor(String tag, String description, boolean ignoreFailure, RoutingCache cache, String hash, int maxCells, ThreadContext threadContext, TrafficCounters counters) {
        super(tag, description, ignoreFailure);
        this.cache = cache;
        this.hash = hash;
        this.maxCells = maxCells;
        this.threadContext = threadContext;
        this.counters = counters;
    }

    static String resource(String name) {
        try (InputStream in = GeoRoutingSearchProcessor.class.getResourceAsStream(name)) {
            if (in == null) throw new IllegalStateException("the plugin jar lacks " + name + ": build it with scripts/plugin.mjs");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("reading " + name + ": " + e, e);
        }
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public SearchRequest processRequest(SearchRequest request) {
        return processRequest(request, null);
    }

    @Override
    public SearchRequest processRequest(SearchRequest request, PipelineProcessingContext context) {
        long t0 = System.nanoTime();
        GeoshardReport report = decide(request, t0);
        if (context != null) context.setAttribute(REPORT_ATTRIBUTE, report);
        if (threadContext != null) {
            try {
                threadContext.addResponseHeader(HEADER, report.toJson());
            } catch (RuntimeException ignored) {
                // A header already set by an earlier processor of the same request: the context still carries the report.
            }
        }
        return request;
    }

    private GeoshardReport decide(SearchRequest request, long t0) {
        String[] indices = request.indices();
        String index = indices != null && indices.length == 1 ? indices[0] : null;
        if (request.routing() != null) return no("the client set routing [" + request.routing() + "]: it is never changed", index, null, t0);
        if (request.pointInTimeBuilder() != null) {
            // A point in time fixed its shards (and their copies) when it was created: geoshard migrate, the audit and
            // readers that page through every copy of a range read through one, and must see every copy.
            return no("a point-in-time search: its shards were chosen when the point in time was created; left as it is", index, null, t0);
        }
        if (index == null) return no("the search names " + (indices == null ? 0 : indices.length) + " indices: only a search of one index is narrowed", null, null, t0);
        RoutingCache.Entry e;
        try {
            e = cache.get(index);
        } catch (RoutingCache.Unresolved u) {
            return no(u.getMessage(), index, null, t0);
        }
        if (e.problem != null) return no(e.problem, e.index, null, t0);
        IndexRouting r = e.routing;
        if (r == null) return no("index [" + e.index + "] has no geoshard _meta (no _meta.hash): it is not geosharded", e.index, null, t0);
        if (hash != null && !hash.equals(r.hash) && !hash.equals(r.target)) {
            return no("the pipeline was installed for boundary file " + hash + " but index [" + e.index + "] _meta.hash is " + r.hash
                + (r.target != null ? " (migrating to " + r.target + ")" : "") + ": reinstall the pipeline for the index's file", e.index, r.hash, t0);
        }
        SearchSourceBuilder source = request.source();
        QueryBuilder query = source == null ? null : source.query();
        // The cells first (the exclusions below add must_not clauses to the query). A search that is
        // not narrowed is left as it is, copies of a moving range included, as it would be without the
        // plugin: a search for every copy of a document (a writer's delete, GeoIndexer's lookups) must
        // find them. A narrowed one, mid-move, leaves out the copies that are not the read copy, as
        // routedRequest does: each document answers once.
        int[] cells = null;
        String why = null;
        int atLeast = -1;
        try {
            cells = QueryShapes.cellsOf(query, r.location, r.childLocation, maxCells);
        } catch (QueryShapes.NotNarrowed n) {
            why = n.getMessage();
        } catch (Coverings.TooManyCellsException t) {
            atLeast = t.atLeast;
            why = "the covering has at least " + t.atLeast + " level-10 cells, above max_cells " + maxCells + ": searched on every shard";
        }
        if (why != null) return report(false, null, atLeast, -1, 0, why, e.index, r.hash, t0);
        if (cells == null) {
            return report(false, null, -1, -1, 0, "no geo_distance, geo_bounding_box or geo_polygon clause on [" + r.location + "] that every hit must match: searched on every shard", e.index, r.hash, t0);
        }
        int excluded = addExclusions(request, r);
        // The node's traffic counters: one narrowed search, and every cell of its covering (TrafficCounters).
        if (counters != null) counters.search(e.index, cells);
        if (cells.length == 0) {
            // No cell can hold a match: ask the one shard of the first name (the answer is empty either way, and a search must ask a shard).
            request.routing(r.names[0]);
            return report(true, r.names[0], 0, 1, excluded, null, e.index, r.hash, t0);
        }
        IndexRouting.Route route = r.route(cells);
        request.routing(route.routing);
        return report(true, route.routing, cells.length, route.shards, excluded, null, e.index, r.hash, t0);
    }

    private static GeoshardReport no(String reason, String index, String hash, long t0) {
        return report(false, null, -1, -1, 0, reason, index, hash, t0);
    }

    private static GeoshardReport report(boolean routed, String routing, int cells, int shards, int excluded, String reason, String index, String hash, long t0) {
        return new GeoshardReport(routed, routing, cells, shards, excluded, reason, (System.nanoTime() - t0) / 1000, index, hash);
    }

    /** Adds the mid-move exclusions as must_not (src/opensearch/routedSearch.ts routedRequest); returns how many. */
    private static int addExclusions(SearchRequest request, IndexRouting r) {
        if (r.exclusions.isEmpty()) return 0;
        SearchSourceBuilder source = request.source();
        if (source == null) {
            source = new SearchSourceBuilder();
            request.source(source);
        }
        QueryBuilder q = source.query();
        BoolQueryBuilder b;
        if (q instanceof BoolQueryBuilder) b = (BoolQueryBuilder) q;
        else {
            b = QueryBuilders.boolQuery();
            b.must(q == null ? QueryBuilders.matchAllQuery() : q);
            source.query(b);
        }
        for (QueryBuilder x : exclusionFilters(r)) b.mustNot(x);
        return r.exclusions.size();
    }

    /**
     * src/opensearch/rangeFilter.ts exclusionFilters: for each move, the documents with the
     * ignored owner's {@code _routing} located in the range: a term on _routing and the range
     * filter (rangeFilter.ts rangeScriptQuery): a constant_score over a script_score whose query
     * is the prefilter (the range's cells' padded boxes on the located fields) and whose script is
     * the Painless RANGE_SCRIPT (1 for a document of the range, else 0; min_score 1). A
     * script_score, not a script query: its script can read {@code _source}, where the exact point
     * of a document whose stored point lies within ~1 cm of a cell edge is (the cell the routing
     * pipeline placed it by); a script query's script cannot.
     */
    static List<QueryBuilder> exclusionFilters(IndexRouting r) {
        List<QueryBuilder> out = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        fields.add(r.location);
        if (r.childLocation != null) fields.add(r.childLocation);
        for (IndexRouting.Exclusion x : r.exclusions) {
            BoolQueryBuilder boxes = QueryBuilders.boolQuery().minimumShouldMatch(1);
            for (String f : fields) {
                for (S2CellId id : rangeCells(x.lo, x.hi)) {
                    double[] b = cellBox(id);
                    boxes.should(QueryBuilders.geoBoundingBoxQuery(f).setCorners(b[2], b[1], b[0], b[3]));
                }
            }
            Map<String, Object> params = new HashMap<>();
            params.put("location", r.location);
            params.put("child", r.childLocation);
            params.put("lo", x.lo);
            params.put("hi", x.hi);
            Script script = new Script(ScriptType.INLINE, "painless", RANGE_SCRIPT, params);
            QueryBuilder inRange = QueryBuilders.constantScoreQuery(QueryBuilders.scriptScoreQuery(boxes, script).setMinScore(RANGE_MIN_SCORE));
            out.add(QueryBuilders.boolQuery().filter(QueryBuilders.termQuery("_routing", x.routing)).filter(inRange));
        }
        return out;
    }

    /** rangeFilter.ts rangeCells: the fewest cells (levels 0-10) whose level-10 descendants are exactly [lo, hi). */
    static List<S2CellId> rangeCells(int lo, int hi) {
        List<S2CellId> out = new ArrayList<>();
        for (int o = lo; o < hi;) {
            int k = 0;
            while (k < S2Cells.LEVEL && o % (1 << (2 * (k + 1))) == 0 && (long) o + (1 << (2 * (k + 1))) <= hi) k++;
            out.add(S2Cells.cellOf(o).parent(S2Cells.LEVEL - k));
            o += 1 << (2 * k);
        }
        return out;
    }

    /** rangeFilter.ts cellBox: a cell's bounding box padded by 1e-6 degrees, as [south, west, north, east]. */
    static double[] cellBox(S2CellId id) {
        S2LatLngRect r = new S2Cell(id).getRectBound();
        double deg = 180 / Math.PI;
        double south = Math.max(-90, r.lat().lo() * deg - 1e-6);
        double north = Math.min(90, r.lat().hi() * deg + 1e-6);
        if (r.lng().isFull() || south <= -90 || north >= 90) return new double[] { south, -180, north, 180 };
        return new double[] { south, wrap(r.lng().lo() * deg - 1e-6), north, wrap(r.lng().hi() * deg + 1e-6) };
    }

    private static double wrap(double x) {
        return x > 180 ? x - 360 : x < -180 ? x + 360 : x;
    }

    /** The factory: reads and checks the config (naming the field, the value and what is valid). */
    static final class Factory implements Processor.Factory<SearchRequestProcessor> {
        private final RoutingCache cache;
        private final ThreadContext threadContext;
        private final TrafficCounters counters;

        Factory(RoutingCache cache, ThreadContext threadContext, TrafficCounters counters) {
            this.cache = cache;
            this.threadContext = threadContext;
            this.counters = counters;
        }

        @Override
        public SearchRequestProcessor create(Map<String, Processor.Factory<SearchRequestProcessor>> factories, String tag, String description, boolean ignoreFailure, Map<String, Object> config, Processor.PipelineContext pipelineContext) {
            Object h = config.remove("hash");
            if (h != null && !(h instanceof String && ((String) h).matches("[0-9a-f]{64}"))) {
                throw new IllegalArgumentException("[" + TYPE + "] config hash " + S2Cells.quote(h) + " is not valid: expected the 64-hex-digit sha256 of a boundary file (its \"hash\" field), or no hash");
            }
            Object m = config.remove("max_cells");
            int maxCells = DEFAULT_MAX_CELLS;
            if (m != null) {
                if (!(m instanceof Integer) || (Integer) m < 1) {
                    throw new IllegalArgumentException("[" + TYPE + "] config max_cells " + S2Cells.quote(m) + " is not valid: expected a whole number of level-10 cells of at least 1 (default " + DEFAULT_MAX_CELLS + ")");
                }
                maxCells = (Integer) m;
            }
            if (!config.isEmpty()) {
                throw new IllegalArgumentException("[" + TYPE + "] config has unknown field(s) " + config.keySet() + ": the valid ones are hash and max_cells");
            }
            return new GeoRoutingSearchProcessor(tag, description, ignoreFailure, cache, (String) h, maxCells, threadContext, counters);
        }
    }
}
