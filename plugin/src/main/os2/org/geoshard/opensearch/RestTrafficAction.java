/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.client.node.NodeClient;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;

import java.util.List;

/**
 * GET /_plugins/geoshard/traffic/{index}?from=&to=&size= ({@link TrafficAction}). One file per
 * OpenSearch major version: the NodeClient of prepareRequest moved package in 3.x
 * (org.opensearch.client.node in 2.x, org.opensearch.transport.client.node in 3.x).
 */
public final class RestTrafficAction extends BaseRestHandler {
    @Override
    public String getName() {
        return "geoshard_traffic";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(RestRequest.Method.GET, "/_plugins/geoshard/traffic/{index}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        TrafficRequest r = TrafficRequest.of(request.param("index"), request.param("from"), request.param("to"), request.param("size"));
        return channel -> client.execute(TrafficAction.INSTANCE, r, new RestToXContentListener<>(channel));
    }
}
