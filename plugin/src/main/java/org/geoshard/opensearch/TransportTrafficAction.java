/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.index.IndexNotFoundException;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.io.IOException;
import java.util.List;

/**
 * Asks every node for its counts ({@link TrafficCounters#read}) on the management pool and
 * merges them into a {@link TrafficResponse}. The index name is resolved on the node that takes
 * the request: an alias of one index stands for that index; anything else is refused.
 */
public final class TransportTrafficAction extends TransportNodesAction<TrafficRequest, TrafficResponse, TrafficNodeRequest, TrafficNodeResponse> {
    private final TrafficCounters counters;

    @Inject
    public TransportTrafficAction(ThreadPool threadPool, ClusterService clusterService, TransportService transportService, ActionFilters actionFilters, TrafficCounters counters) {
        super(TrafficAction.NAME, threadPool, clusterService, transportService, actionFilters, TrafficRequest::new, TrafficNodeRequest::new, ThreadPool.Names.MANAGEMENT, TrafficNodeResponse.class);
        this.counters = counters;
    }

    @Override
    protected void resolveRequest(TrafficRequest request, ClusterState state) {
        IndexAbstraction a = state.metadata().getIndicesLookup().get(request.index);
        // A missing index answers as OpenSearch's own APIs do: 404 index_not_found_exception.
        if (a == null) throw new IndexNotFoundException(request.index);
        if (a.getIndices().size() != 1) throw new IllegalArgumentException("[" + request.index + "] stands for " + a.getIndices().size() + " indices: expected one index (or an alias of one)");
        request.index = a.getIndices().get(0).getIndex().getName();
        super.resolveRequest(request, state);
    }

    @Override
    protected TrafficResponse newResponse(TrafficRequest request, List<TrafficNodeResponse> nodes, List<FailedNodeException> failures) {
        return new TrafficResponse(clusterService.getClusterName(), nodes, failures, request);
    }

    @Override
    protected TrafficNodeRequest newNodeRequest(TrafficRequest request) {
        return new TrafficNodeRequest(request);
    }

    @Override
    protected TrafficNodeResponse newNodeResponse(StreamInput in) throws IOException {
        return new TrafficNodeResponse(in);
    }

    @Override
    protected TrafficNodeResponse nodeOperation(TrafficNodeRequest request) {
        return new TrafficNodeResponse(clusterService.localNode(), counters.read(request.index, request.fromSecond, request.toSecond, request.size), counters.untracked());
    }
}
