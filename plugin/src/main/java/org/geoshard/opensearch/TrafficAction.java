/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.action.ActionType;

/**
 * The traffic counters of every node ({@link TrafficCounters}) for one index and a window, merged:
 * {@code GET /_plugins/geoshard/traffic/<index>?from=<ms>&to=<ms>[&size=<cells>]}.
 *
 * <p>Privilege: the cluster permission {@value #NAME}, which the security plugin's
 * {@code cluster_monitor} action group grants ({@code cluster:monitor/*}).
 */
public final class TrafficAction extends ActionType<TrafficResponse> {
    public static final String NAME = "cluster:monitor/geoshard/traffic";
    public static final TrafficAction INSTANCE = new TrafficAction();

    private TrafficAction() {
        super(NAME, TrafficResponse::new);
    }
}
