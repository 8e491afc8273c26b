/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/** A read of the traffic counters of every node: an index (or an alias of one), the window [from, to) in ms since the epoch, and the most cells listed per kind. */
public final class TrafficRequest extends BaseNodesRequest<TrafficRequest> {
    /** The most cells a reader may ask to be listed per kind. */
    static final int MAX_SIZE = 10_000;
    /** Cells listed per kind when the reader does not say. */
    static final int DEFAULT_SIZE = 1_000;

    String index;
    long fromMs;
    long toMs;
    int size;

    TrafficRequest(String index, long fromMs, long toMs, int size) {
        super((String[]) null);
        this.index = index;
        this.fromMs = fromMs;
        this.toMs = toMs;
        this.size = size;
    }

    TrafficRequest(StreamInput in) throws IOException {
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

    /**
     * The request of a REST call's parameters; throws IllegalArgumentException naming the
     * parameter, its value and what is valid.
     */
    static TrafficRequest of(String index, String from, String to, String size) {
        if (index == null || index.isEmpty()) throw new IllegalArgumentException("index is missing: expected GET /_plugins/geoshard/traffic/<index>?from=<ms>&to=<ms>");
        long f = millis("from", from);
        long t = millis("to", to);
        if (t <= f) throw new IllegalArgumentException("to " + t + " is not after from " + f + ": expected a window [from, to) of at least one millisecond");
        int n = DEFAULT_SIZE;
        if (size != null) {
            try {
                n = Integer.parseInt(size);
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || n > MAX_SIZE) throw new IllegalArgumentException("size " + S2Cells.quote(size) + " is not valid: expected a whole number of cells in [1, " + MAX_SIZE + "] (default " + DEFAULT_SIZE + ")");
        }
        return new TrafficRequest(index, f, t, n);
    }

    private static long millis(String name, String v) {
        if (v == null) throw new IllegalArgumentException(name + " is missing: expected a time in ms since the epoch (a whole number)");
        try {
            long x = Long.parseLong(v);
            if (x >= 0) return x;
        } catch (NumberFormatException ignored) {
            // Falls through to the message below.
        }
        throw new IllegalArgumentException(name + " " + S2Cells.quote(v) + " is not valid: expected a time in ms since the epoch (a whole number of at least 0)");
    }
}
