/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Every node's counts for one index and window, merged: searches and writes summed (exact), the
 * cells of each kind merged with their error bounds ({@link CellCounts#merge}), and
 * {@code held_from}: the earliest time (ms) from which every node that answered still held its
 * seconds; a window starting before it has lost counts.
 */
public final class TrafficResponse extends BaseNodesResponse<TrafficNodeResponse> implements ToXContentObject {
    private final String index;
    private final long fromMs;
    private final long toMs;
    private final int size;

    TrafficResponse(ClusterName cluster, List<TrafficNodeResponse> nodes, List<FailedNodeException> failures, TrafficRequest r) {
        super(cluster, nodes, failures);
        index = r.index;
        fromMs = r.fromMs;
        toMs = r.toMs;
        size = r.size;
    }

    TrafficResponse(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        fromMs = in.readLong();
        toMs = in.readLong();
        size = in.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(index);
        out.writeLong(fromMs);
        out.writeLong(toMs);
        out.writeVInt(size);
    }

    @Override
    protected List<TrafficNodeResponse> readNodesFrom(StreamInput in) throws IOException {
        return in.readList(TrafficNodeResponse::new);
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<TrafficNodeResponse> nodes) throws IOException {
        out.writeList(nodes);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder b, Params params) throws IOException {
        long searches = 0, writes = 0, untracked = 0, heldFrom = Long.MIN_VALUE;
        List<CellCounts> search = new ArrayList<>();
        List<CellCounts> write = new ArrayList<>();
        for (TrafficNodeResponse n : getNodes()) {
            searches += n.searches;
            writes += n.writes;
            untracked += n.untracked;
            heldFrom = Math.max(heldFrom, n.heldFromSecond * 1000);
            search.add(n.searchCells);
            write.add(n.writeCells);
        }
        b.startObject();
        b.startObject("_nodes").field("total", getNodes().size() + failures().size()).field("successful", getNodes().size()).field("failed", failures().size()).endObject();
        if (!failures().isEmpty()) {
            b.startArray("failures");
            for (FailedNodeException f : failures()) b.startObject().field("node", f.nodeId()).field("reason", String.valueOf(f.getDetailedMessage())).endObject();
            b.endArray();
        }
        b.field("index", index).field("from", fromMs).field("to", toMs);
        b.field("held_from", heldFrom == Long.MIN_VALUE ? null : heldFrom);
        b.field("capacity", TrafficCounters.CAPACITY).field("seconds_kept", TrafficCounters.SECONDS);
        b.field("searches", searches).field("writes", writes).field("untracked", untracked);
        b.startObject("search_cells");
        CellCounts.merge(search, size).toXContent(b);
        b.endObject();
        b.startObject("write_cells");
        CellCounts.merge(write, size).toXContent(b);
        b.endObject();
        return b.endObject();
    }
}
