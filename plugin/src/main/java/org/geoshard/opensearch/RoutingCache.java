/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexAbstraction;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.cluster.service.ClusterService;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The routing of each index, read from its mapping {@code _meta} in the node's cluster state
 * (no network call) and kept per index UUID and mapping version: a search or a write costs a map
 * look-up, and a new {@code _meta} (a move's next step, a new boundary file) is seen as soon as
 * the node applies the cluster state that carries it.
 */
final class RoutingCache {
    private final Supplier<ClusterService> clusterService;
    private final Map<String, Entry> byUuid = new ConcurrentHashMap<>();

    RoutingCache(Supplier<ClusterService> clusterService) {
        this.clusterService = clusterService;
    }

    /** One index's routing: {@code routing} when readable, else {@code problem} says why (null routing and problem: no geoshard _meta). */
    static final class Entry {
        final long mappingVersion;
        final String index;
        final IndexRouting routing;
        final String problem;

        Entry(long mappingVersion, String index, IndexRouting routing, String problem) {
            this.mappingVersion = mappingVersion;
            this.index = index;
            this.routing = routing;
            this.problem = problem;
        }
    }

    /** A name that is not one index: the message says why. */
    static final class Unresolved extends Exception {
        private static final long serialVersionUID = 1L;

        Unresolved(String message) {
            super(message);
        }
    }

    /** The routing of the one index a name (an index or an alias of one index) stands for. */
    Entry get(String name) throws Unresolved {
        ClusterService cs = clusterService.get();
        if (cs == null) throw new Unresolved("the geoshard plugin has no cluster state yet");
        ClusterState state = cs.state();
        IndexAbstraction a = state.metadata().getIndicesLookup().get(name);
        if (a == null) throw new Unresolved("[" + name + "] is not an index or an alias of the cluster (a pattern or a missing index is not narrowed)");
        if (a.getIndices().size() != 1) throw new Unresolved("[" + name + "] stands for " + a.getIndices().size() + " indices: a search is narrowed only on one index");
        IndexMetadata md = a.getIndices().get(0);
        String uuid = md.getIndexUUID();
        long version = md.getMappingVersion();
        Entry e = byUuid.get(uuid);
        if (e != null && e.mappingVersion == version) return e;
        e = read(md, version);
        byUuid.put(uuid, e);
        if (byUuid.size() > 4096) byUuid.clear();
        return e;
    }

    @SuppressWarnings("unchecked")
    private static Entry read(IndexMetadata md, long version) {
        String index = md.getIndex().getName();
        MappingMetadata mapping = md.mapping();
        Object meta = mapping == null ? null : mapping.sourceAsMap().get("_meta");
        try {
            IndexRouting r = meta instanceof Map ? IndexRouting.of((Map<String, Object>) meta, index) : null;
            return new Entry(version, index, r, null);
        } catch (IndexRouting.MetaException ex) {
            return new Entry(version, index, null, ex.getMessage());
        } catch (RuntimeException ex) {
            return new Entry(version, index, null, "index [" + index + "] _meta cannot be read: " + ex);
        }
    }
}
