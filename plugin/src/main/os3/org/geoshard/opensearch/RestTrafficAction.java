/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.transport.client.node.NodeClient;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;

/** {@link RestTrafficBase}'s handler for this OpenSearch major version (its NodeClient's package). */
public final class RestTrafficAction extends RestTrafficBase {
    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        TrafficRequest r = requestOf(request);
        return channel -> client.execute(TrafficAction.INSTANCE, r, new RestToXContentListener<>(channel));
    }
}
