/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.opensearch.index.query.BoolQueryBuilder;
import org.opensearch.index.query.GeoDistanceQueryBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;

import org.junit.Test;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Which clauses of a query narrow it: a location clause every hit must match, on the location
 * field or on the child location field (a join child is placed by that copy of its parent's
 * point, so both narrow to the same cells); a clause on another field, or only under should
 * beside other clauses, leaves the search on every shard (null).
 */
public class QueryShapesTest {
    private static final String LOCATION = "location";
    private static final String CHILD = "restaurant_location";

    private static GeoDistanceQueryBuilder circle(String field) {
        return QueryBuilders.geoDistanceQuery(field).point(40.7128, -74.006).distance("25km");
    }

    private static int[] cells(QueryBuilder q) throws Exception {
        return QueryShapes.cellsOf(q, LOCATION, CHILD, 30000);
    }

    @Test
    public void aChildLocationFilterNarrowsAsTheLocationDoes() throws Exception {
        int[] byLocation = cells(QueryBuilders.boolQuery().filter(circle(LOCATION)));
        assertTrue("the circle has cells", byLocation != null && byLocation.length > 0);
        // The live API's dish search: a join filter, the circle on the dish's copy, scoring in must.
        BoolQueryBuilder dishes = QueryBuilders.boolQuery()
            .must(QueryBuilders.matchAllQuery())
            .filter(QueryBuilders.termQuery("join", "dish"))
            .filter(circle(CHILD));
        assertArrayEquals(byLocation, cells(dishes));
        assertArrayEquals(byLocation, cells(QueryBuilders.constantScoreQuery(circle(CHILD))));
    }

    @Test
    public void otherFieldsAndOptionalClausesDoNotNarrow() throws Exception {
        assertNull(cells(QueryBuilders.boolQuery().filter(circle("elsewhere"))));
        assertNull(cells(QueryBuilders.boolQuery().should(circle(CHILD)).filter(QueryBuilders.termQuery("join", "dish"))));
        assertNull(cells(QueryBuilders.boolQuery().mustNot(circle(LOCATION))));
        assertNull(cells(QueryBuilders.matchAllQuery()));
    }
}
