/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;

import java.util.List;

/**
 * GET /_plugins/geoshard/traffic/{index}?from=&to=&size= ({@link TrafficAction}): its name, route
 * and parameters. {@code RestTrafficAction} (src/main/os2 and os3) adds prepareRequest, the one
 * part that differs by OpenSearch major version: its NodeClient moved package in 3.x
 * (org.opensearch.client.node in 2.x, org.opensearch.transport.client.node in 3.x).
 */
abstract class RestTrafficBase extends BaseRestHandler {
    @Override
    public String getName() {
        return "geoshard_traffic";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(RestRequest.Method.GET, "/_plugins/geoshard/traffic/{index}"));
    }

    /** The transport request of a REST call; throws IllegalArgumentException (a 400) naming a bad parameter. */
    static TrafficRequest requestOf(RestRequest request) {
        return TrafficRequest.of(request.param("index"), request.param("from"), request.param("to"), request.param("size"));
    }
}
