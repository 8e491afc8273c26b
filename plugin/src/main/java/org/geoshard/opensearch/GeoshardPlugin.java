/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.ActionRequest;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.node.DiscoveryNodes;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Module;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.IndexScopedSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.settings.SettingsFilter;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.ingest.Processor;
import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.IngestPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPipelinePlugin;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.rest.RestController;
import org.opensearch.rest.RestHandler;
import org.opensearch.search.pipeline.SearchRequestProcessor;
import org.opensearch.search.pipeline.SearchResponseProcessor;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The geoshard plugin: geo_routing_search (search request processor), geo_routing_report (search
 * response processor: {@code ext.geoshard}) and geo_routing (ingest processor).
 *
 * <p>The node's ClusterService comes from the IngestService the node hands every ingest plugin
 * (IngestService.getClusterService, the same on 2.19 and 3.x), rather than from createComponents,
 * whose Client parameter changed package between 2.x and 3.x (one source for both). The ingest
 * service is built with the node, before any search runs. The counters reach the transport
 * action through the node's injector (createGuiceModules), for the same reason.
 */
public class GeoshardPlugin extends Plugin implements SearchPipelinePlugin, IngestPlugin, SearchPlugin, ActionPlugin {
    private volatile ClusterService clusterService;
    private final RoutingCache cache = new RoutingCache(() -> clusterService);
    private final TrafficCounters counters = new TrafficCounters(System::currentTimeMillis);

    @Override
    public Map<String, Processor.Factory> getProcessors(Processor.Parameters parameters) {
        if (parameters.ingestService != null) clusterService = parameters.ingestService.getClusterService();
        return Map.of(GeoRoutingIngestProcessor.TYPE, new GeoRoutingIngestProcessor.Factory(cache, counters));
    }

    @Override
    public Map<String, org.opensearch.search.pipeline.Processor.Factory<SearchRequestProcessor>> getRequestProcessors(SearchPipelinePlugin.Parameters parameters) {
        return Map.of(GeoRoutingSearchProcessor.TYPE, new GeoRoutingSearchProcessor.Factory(cache, parameters.threadContext, counters));
    }

    @Override
    public Map<String, org.opensearch.search.pipeline.Processor.Factory<SearchResponseProcessor>> getResponseProcessors(SearchPipelinePlugin.Parameters parameters) {
        return Map.of(GeoRoutingReportProcessor.TYPE, new GeoRoutingReportProcessor.Factory());
    }

    @Override
    public List<SearchExtSpec<?>> getSearchExts() {
        return List.of(new SearchExtSpec<>(GeoshardReport.NAME, GeoshardReport::new, GeoshardReport::fromXContent));
    }

    @Override
    public List<ActionHandler<? extends ActionRequest, ? extends ActionResponse>> getActions() {
        return List.of(new ActionHandler<>(TrafficAction.INSTANCE, TransportTrafficAction.class));
    }

    @Override
    public List<RestHandler> getRestHandlers(Settings settings, RestController restController, ClusterSettings clusterSettings, IndexScopedSettings indexScopedSettings, SettingsFilter settingsFilter, IndexNameExpressionResolver indexNameExpressionResolver, Supplier<DiscoveryNodes> nodesInCluster) {
        return List.of(new RestTrafficAction());
    }

    @Override
    public Collection<Module> createGuiceModules() {
        return List.of(b -> b.bind(TrafficCounters.class).toInstance(counters));
    }
}
