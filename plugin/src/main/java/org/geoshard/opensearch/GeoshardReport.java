/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.search.SearchExtBuilder;

import java.io.IOException;
import java.util.Objects;

/**
 * What geo_routing_search decided for one search, as the response's {@code ext.geoshard}:
 * {@code routed} (the search was narrowed), {@code routing} (the shard names set, or null),
 * {@code cells} (level-10 cells of the covering, or -1), {@code shards} (shards asked when
 * routed, or -1), {@code excluded} (mid-move exclusion filters added), {@code reason} (why it
 * was not narrowed, or null), {@code micros} (the processor's time: covering and lookup),
 * {@code index} and {@code hash} (the boundary file routed with).
 */
public final class GeoshardReport extends SearchExtBuilder {
    /** The ext's name: {@code ext.geoshard}. */
    public static final String NAME = "geoshard";

    public final boolean routed;
    public final String routing;
    public final int cells;
    public final int shards;
    public final int excluded;
    public final String reason;
    public final long micros;
    public final String index;
    public final String hash;

    public GeoshardReport(boolean routed, String routing, int cells, int shards, int excluded, String reason, long micros, String index, String hash) {
        this.routed = routed;
        this.routing = routing;
        this.cells = cells;
        this.shards = shards;
        this.excluded = excluded;
        this.reason = reason;
        this.micros = micros;
        this.index = index;
        this.hash = hash;
    }

    public GeoshardReport(StreamInput in) throws IOException {
        routed = in.readBoolean();
        routing = in.readOptionalString();
        cells = in.readInt();
        shards = in.readInt();
        excluded = in.readInt();
        reason = in.readOptionalString();
        micros = in.readLong();
        index = in.readOptionalString();
        hash = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeBoolean(routed);
        out.writeOptionalString(routing);
        out.writeInt(cells);
        out.writeInt(shards);
        out.writeInt(excluded);
        out.writeOptionalString(reason);
        out.writeLong(micros);
        out.writeOptionalString(index);
        out.writeOptionalString(hash);
    }

    /** A request's {@code ext.geoshard} is accepted and ignored (the report is an answer, not a question). */
    public static GeoshardReport fromXContent(XContentParser parser) throws IOException {
        parser.skipChildren();
        return new GeoshardReport(false, null, -1, -1, 0, "sent by the client", 0, null, null);
    }

    @Override
    public String getWriteableName() {
        return NAME;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject(NAME);
        builder.field("routed", routed);
        builder.field("routing", routing);
        builder.field("cells", cells);
        builder.field("shards", shards);
        builder.field("excluded", excluded);
        builder.field("reason", reason);
        builder.field("micros", micros);
        builder.field("index", index);
        builder.field("hash", hash);
        return builder.endObject();
    }

    /** The same, as one line of JSON (the X-Geoshard-Routing response header). */
    public String toJson() {
        return "{\"routed\":" + routed + ",\"routing\":" + json(routing) + ",\"cells\":" + cells + ",\"shards\":" + shards + ",\"excluded\":" + excluded
            + ",\"reason\":" + json(reason) + ",\"micros\":" + micros + ",\"index\":" + json(index) + ",\"hash\":" + json(hash) + "}";
    }

    private static String json(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GeoshardReport)) return false;
        GeoshardReport r = (GeoshardReport) o;
        return routed == r.routed && cells == r.cells && shards == r.shards && excluded == r.excluded && micros == r.micros
            && Objects.equals(routing, r.routing) && Objects.equals(reason, r.reason) && Objects.equals(index, r.index) && Objects.equals(hash, r.hash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(routed, routing, cells, shards, excluded, reason, micros, index, hash);
    }
}
