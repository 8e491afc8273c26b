/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.support.nodes.BaseNodeRequest;
import org.opensearch.core.common.io.stream.StreamInput;

import java.io.IOException;

/** OpenSearch 2.x: a node-level request of a nodes action extends BaseNodeRequest (gone in 3.x, where it is a TransportRequest). */
public abstract class NodeRequestBase extends BaseNodeRequest {
    protected NodeRequestBase() {}

    protected NodeRequestBase(StreamInput in) throws IOException {
        super(in);
    }
}
