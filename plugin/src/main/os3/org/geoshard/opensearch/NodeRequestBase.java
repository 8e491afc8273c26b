/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.transport.TransportRequest;

import java.io.IOException;

/** OpenSearch 3.x: a node-level request of a nodes action is a TransportRequest (2.x: a BaseNodeRequest). */
public abstract class NodeRequestBase extends TransportRequest {
    protected NodeRequestBase() {}

    protected NodeRequestBase(StreamInput in) throws IOException {
        super(in);
    }
}
