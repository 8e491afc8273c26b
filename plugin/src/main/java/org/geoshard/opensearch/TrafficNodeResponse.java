/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/** What one node counted ({@link TrafficCounters.Read}) and how many searches and writes it could not count. */
public final class TrafficNodeResponse extends BaseNodeResponse {
    final long searches;
    final long writes;
    final long heldFromSecond;
    final long untracked;
    final CellCounts searchCells;
    final CellCounts writeCells;

    TrafficNodeResponse(DiscoveryNode node, TrafficCounters.Read r, long untracked) {
        super(node);
        searches = r.searches;
        writes = r.writes;
        heldFromSecond = r.heldFrom;
        this.untracked = untracked;
        searchCells = r.searchCells;
        writeCells = r.writeCells;
    }

    TrafficNodeResponse(StreamInput in) throws IOException {
        super(in);
        searches = in.readVLong();
        writes = in.readVLong();
        heldFromSecond = in.readLong();
        untracked = in.readVLong();
        searchCells = new CellCounts(in);
        writeCells = new CellCounts(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeVLong(searches);
        out.writeVLong(writes);
        out.writeLong(heldFromSecond);
        out.writeVLong(untracked);
        searchCells.writeTo(out);
        writeCells.writeTo(out);
    }
}
