/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;

/** What one node is asked: the concrete index, the window in whole seconds [from, to), the most cells listed. */
public final class TrafficNodeRequest extends NodeRequestBase {
    final String index;
    final long fromSecond;
    final long toSecond;
    final int size;

    TrafficNodeRequest(TrafficRequest r) {
        index = r.index;
        fromSecond = Math.floorDiv(r.fromMs, 1000L);
        toSecond = Math.floorDiv(r.toMs + 999, 1000L);
        size = r.size;
    }

    TrafficNodeRequest(StreamInput in) throws IOException {
        super(in);
        index = in.readString();
        fromSecond = in.readLong();
        toSecond = in.readLong();
        size = in.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(index);
        out.writeLong(fromSecond);
        out.writeLong(toSecond);
        out.writeVInt(size);
    }
}
