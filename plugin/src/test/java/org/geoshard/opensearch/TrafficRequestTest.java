/*
 * SPDX-License-Identifier: Apache-2.0
 */
package org.geoshard.opensearch;

import org.junit.Test;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

/** The REST parameters of GET /_plugins/geoshard/traffic/<index>: a bad one is refused naming the parameter, the value and what is valid. */
public class TrafficRequestTest {
    private static String refused(String index, String from, String to, String size) {
        return assertThrows(IllegalArgumentException.class, () -> TrafficRequest.of(index, from, to, size)).getMessage();
    }

    @Test
    public void readsAValidRequest() {
        TrafficRequest r = TrafficRequest.of("dishes", "1000", "61000", null);
        assertEquals("dishes", r.index);
        assertEquals(1000, r.fromMs);
        assertEquals(61000, r.toMs);
        assertEquals(TrafficRequest.DEFAULT_SIZE, r.size);
        assertEquals(7, TrafficRequest.of("dishes", "0", "1", "7").size);
        TrafficNodeRequest n = new TrafficNodeRequest(TrafficRequest.of("dishes", "1500", "3001", null));
        assertEquals(1, n.fromSecond);
        assertEquals(4, n.toSecond);
    }

    @Test
    public void refusesWhatItCannotRead() {
        assertTrue(refused("dishes", null, "1", null).startsWith("from is missing"));
        assertTrue(refused("dishes", "x", "1", null).startsWith("from \"x\" is not valid: expected a time in ms"));
        assertTrue(refused("dishes", "0", "-5", null).startsWith("to \"-5\" is not valid"));
        assertTrue(refused("dishes", "10", "10", null).startsWith("to 10 is not after from 10"));
        assertTrue(refused("dishes", "0", "10", "0").contains("size \"0\" is not valid: expected a whole number of cells in [1, 10000]"));
        assertTrue(refused("dishes", "0", "10", "many").contains("size \"many\""));
        assertTrue(refused("", "0", "10", null).startsWith("index is missing"));
    }
}
