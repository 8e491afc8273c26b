/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.search.SearchResponseSections;
import org.opensearch.search.SearchExtBuilder;
import org.opensearch.search.aggregations.Aggregations;
import org.opensearch.search.pipeline.AbstractProcessor;
import org.opensearch.search.pipeline.PipelineProcessingContext;
import org.opensearch.search.pipeline.Processor;
import org.opensearch.search.pipeline.SearchResponseProcessor;
import org.opensearch.search.profile.SearchProfileShardResults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code geo_routing_report}: a search response processor that writes what geo_routing_search
 * decided for the request (handed over in the pipeline's processing context) into the response
 * body as {@code ext.geoshard}, where any client can read it. A search that did not pass
 * geo_routing_search (none in the pipeline) gets {@code ext.geoshard.routed: false} and a reason
 * saying so. No config.
 */
public final class GeoRoutingReportProcessor extends AbstractProcessor implements SearchResponseProcessor {
    public static final String TYPE = "geo_routing_report";

    GeoRoutingReportProcessor(String tag, String description, boolean ignoreFailure) {
        super(tag, description, ignoreFailure);
    }

    @Override
    public String getType() {
        return TYPE;
    }

    @Override
    public SearchResponse processResponse(SearchRequest request, SearchResponse response) {
        return processResponse(request, response, null);
    }

    @Override
    public SearchResponse processResponse(SearchRequest request, SearchResponse response, PipelineProcessingContext context) {
        Object r = context == null ? null : context.getAttribute(GeoRoutingSearchProcessor.REPORT_ATTRIBUTE);
        GeoshardReport report = r instanceof GeoshardReport
            ? (GeoshardReport) r
            : new GeoshardReport(false, null, -1, -1, 0, "no " + GeoRoutingSearchProcessor.TYPE + " request processor ran before this response processor", 0, null, null);
        return withExt(response, report);
    }

    /** The response with {@code ext.geoshard} added (any earlier ext of that name replaced). */
    static SearchResponse withExt(SearchResponse response, GeoshardReport report) {
        SearchResponseSections in = response.getInternalResponse();
        List<SearchExtBuilder> exts = new ArrayList<>();
        for (SearchExtBuilder e : in.getSearchExtBuilders()) if (!GeoshardReport.NAME.equals(e.getWriteableName())) exts.add(e);
        exts.add(report);
        Map<String, ?> profile = response.getProfileResults();
        @SuppressWarnings("unchecked")
        SearchProfileShardResults profiles = profile == null || profile.isEmpty() ? null : new SearchProfileShardResults((Map) profile);
        SearchResponseSections out = new SearchResponseSections(
            response.getHits(),
            (Aggregations) response.getAggregations(),
            response.getSuggest(),
            response.isTimedOut(),
            response.isTerminatedEarly(),
            profiles,
            response.getNumReducePhases(),
            exts
        );
        return new SearchResponse(
            out,
            response.getScrollId(),
            response.getTotalShards(),
            response.getSuccessfulShards(),
            response.getSkippedShards(),
            response.getTook().millis(),
            response.getPhaseTook(),
            response.getShardFailures(),
            response.getClusters(),
            response.pointInTimeId()
        );
    }

    static final class Factory implements Processor.Factory<SearchResponseProcessor> {
        @Override
        public SearchResponseProcessor create(Map<String, Processor.Factory<SearchResponseProcessor>> factories, String tag, String description, boolean ignoreFailure, Map<String, Object> config, Processor.PipelineContext pipelineContext) {
            if (!config.isEmpty()) throw new IllegalArgumentException("[" + TYPE + "] takes no config, not " + config.keySet());
            return new GeoRoutingReportProcessor(tag, description, ignoreFailure);
        }
    }
}
